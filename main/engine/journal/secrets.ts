/**
 * No secret stays in the journal: a queue access token in a control call's `httpAuthorization`
 * becomes a reference to its queue (`Bearer ${token:<queueId>}`), which a bundle writes as its
 * queue variable (`${queue1.token}`); a token of no queue here is not kept at all.
 */

export const TOKEN_REF = /^Bearer \$\{token:([^}]+)\}$/;
export const UNKNOWN_TOKEN = 'Bearer (not kept: a token of no queue of this console)';

export function withTokenRefs(body: unknown, tokenOwner: (token: string) => string | undefined): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return structuredClone(body);
  const copy = structuredClone(body) as Record<string, unknown>;
  const auth = copy.httpAuthorization;
  if (typeof auth === 'string') {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
    const owner = token ? tokenOwner(token) : undefined;
    copy.httpAuthorization = owner ? `Bearer \${token:${owner}}` : UNKNOWN_TOKEN;
  }
  return copy;
}
