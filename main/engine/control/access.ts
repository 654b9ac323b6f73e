/**
 * Who is calling the control API (docs/contract/platform.md §5, docs/contract/console.md §3): the bearer token must be a live access
 * token with `playback-control-all`; anything else is 401 `Incorrect token`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export const PLAYBACK_CONTROL_ALL = 'playback-control-all';

export interface AccessGrant {
  householdId: string;
  scope: string;
  clientId: string;
}

/** Looks an access token up; the login service provides the real one. */
export type AccessTokenVerifier = (token: string) => AccessGrant | null;

export const noTokens: AccessTokenVerifier = () => null;

/** A call made with a bearer token, as the login service's flow inspector records it. */
export interface BearerCall {
  method: string;
  path: string;
  status: number;
}

/** Sees every control API call that carried a bearer token, once it was answered. */
export type BearerCallObserver = (token: string, call: BearerCall) => void;

declare module 'fastify' {
  interface FastifyRequest {
    access: AccessGrant | null;
  }
}

export function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1] ?? null;
}

export function rejectIncorrectToken(reply: FastifyReply): FastifyReply {
  return reply
    .code(401)
    .header('www-authenticate', 'Bearer error="invalid_token"')
    .type('text/plain; charset=utf-8')
    .send('Incorrect token');
}

export function requireAccess(verify: AccessTokenVerifier) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = bearerToken(request.headers.authorization);
    const grant = token ? verify(token) : null;
    if (!grant || !grant.scope.split(' ').includes(PLAYBACK_CONTROL_ALL)) {
      await rejectIncorrectToken(reply);
      return;
    }
    request.access = grant;
  };
}
