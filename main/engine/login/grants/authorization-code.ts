/**
 * The authorization_code grant (RFC 6749 §4.1.3, docs/contract/console.md §2), read the way
 * oidc-provider's `authorization_code.js` reads a code's single use: a code is good once, for the
 * client it was issued to, for 600 s, with the redirect_uri and the PKCE verifier of its
 * authorization request. A code presented again revokes its grant and every token issued from it.
 */
import { CODE_LIFETIME_MS } from '../../api/oauth-types.js';
import type { AuthorizationCode } from '../../store/repositories/authorization-codes.js';
import type { Grant as StoredGrant } from '../../store/repositories/grants.js';
import { InvalidGrant, InvalidRequest } from '../oauth-error.js';
import { isWellFormedVerifier, verifierMatches } from '../pkce.js';
import { sha256 } from '../secrets.js';
import { clientOf, defineGrant, foundBy, type TokenExchange, type Verdict } from './grant.js';
import type { IssuedTokens } from './issuer.js';
import { TOKEN_REQUEST_STEPS } from './token-request.js';

interface CodeExchange extends TokenExchange {
  /** Set by `findCode`: the presented code's hash, its record, and the grant it stands for. */
  code: { hash: Buffer; record: AuthorizationCode; grant: StoredGrant | undefined } | null;
  /** Set by `requireLiveCode`: the grant, once the code is known live. */
  grant: StoredGrant | null;
  /** The engine time the code was judged live at; it is spent at the same time. */
  now: number;
}

export const AUTHORIZATION_CODE_GRANT = defineGrant<CodeExchange>({
  grantType: 'authorization_code',
  begin: (exchange) => ({ ...exchange, code: null, grant: null, now: 0 }),
  steps: [
    ...TOKEN_REQUEST_STEPS,
    { check: 'code', label: 'code is known', run: findCode },
    { check: 'code_unused', label: 'code was not used before', run: refuseReplayedCode },
    { check: 'code_client', label: 'code was issued to this client', run: requireSameClient },
    { check: 'code_live', label: 'code has not expired (600 s)', run: requireLiveCode },
    { check: 'redirect_uri', label: 'redirect_uri is the one of the authorization request', run: matchRedirectUri },
    { check: 'pkce', label: 'PKCE: code_verifier matches the code_challenge', run: verifyPkce },
  ],
  // Two exchanges racing for one code: only one spends it, the other is a replay.
  issue: { failsAs: 'code_unused', run: spendCodeAndIssue },
});

const codeOf = (exchange: CodeExchange) => foundBy(exchange.code, 'findCode');

function findCode(exchange: CodeExchange): Verdict {
  const presented = exchange.form.single('code');
  if (presented === undefined) throw new InvalidRequest('code is missing');
  const hash = sha256(presented);
  const record = exchange.store.authorizationCodes.findByHash(hash);
  if (!record) throw new InvalidGrant('the code is unknown: never issued, or mistyped');
  const grant = exchange.store.grants.get(record.grantId);
  exchange.code = { hash, record, grant };
  exchange.trace.flowId = grant?.flowId ?? null;
  return undefined;
}

function refuseReplayedCode(exchange: CodeExchange): Verdict {
  if (codeOf(exchange).record.usedAt !== null) throw revokeReplayedCode(exchange);
  return undefined;
}

function requireSameClient(exchange: CodeExchange): Verdict {
  if (codeOf(exchange).record.keyId !== clientOf(exchange).key.id)
    throw new InvalidGrant('the code was issued to another client');
  return undefined;
}

function requireLiveCode(exchange: CodeExchange): Verdict {
  const { record, grant } = codeOf(exchange);
  const now = exchange.issuer.now();
  const death = codeDeath(record, grant, now);
  if (death === 'expired')
    throw new InvalidGrant(
      `the code expired ${Math.round((now - record.expiresAt) / 1000)} s ago (codes live ${CODE_LIFETIME_MS / 1000} s)`,
    );
  if (death === 'revoked' || !grant) throw new InvalidGrant('the grant of this code was revoked');
  exchange.grant = grant;
  exchange.now = now;
  return undefined;
}

function matchRedirectUri(exchange: CodeExchange): Verdict {
  const { record } = codeOf(exchange);
  const redirectUri = exchange.form.single('redirect_uri');
  if (redirectUri === undefined) throw new InvalidRequest('redirect_uri is missing');
  if (redirectUri !== record.redirectUri) {
    throw new InvalidGrant(
      `redirect_uri ${JSON.stringify(redirectUri)} is not the one of the authorization request (${JSON.stringify(record.redirectUri)})`,
    );
  }
  return undefined;
}

function verifyPkce(exchange: CodeExchange): Verdict {
  const { codeChallenge } = codeOf(exchange).record;
  const verifier = exchange.form.single('code_verifier');
  if (codeChallenge === null) {
    if (verifier !== undefined)
      throw new InvalidGrant('code_verifier sent, but the authorization request had no code_challenge');
    return { skip: 'no PKCE' };
  }
  if (verifier === undefined) throw new InvalidGrant('the authorization request used PKCE: code_verifier is missing');
  if (!isWellFormedVerifier(verifier))
    throw new InvalidGrant('code_verifier must be 43 to 128 unreserved characters (RFC 7636 §4.1)');
  if (!verifierMatches(codeChallenge, verifier))
    throw new InvalidGrant('code_verifier does not match the code_challenge (S256)');
  return 'S256';
}

function spendCodeAndIssue(exchange: CodeExchange): IssuedTokens {
  const grant = foundBy(exchange.grant, 'requireLiveCode');
  if (!exchange.store.authorizationCodes.markUsed(codeOf(exchange).hash, exchange.now))
    throw revokeReplayedCode(exchange);
  const issued = exchange.issuer.issueTokens(grant.id, grant.scope, { parentId: null });
  exchange.issuer.changed();
  return issued;
}

/** A code presented again: its grant, and every token issued from it, is revoked (RFC 6749 §4.1.2). */
function revokeReplayedCode(exchange: CodeExchange): InvalidGrant {
  const revoked = exchange.issuer.revokeGrant(codeOf(exchange).record.grantId, 'authorization code used twice');
  exchange.trace.revoked = true;
  return new InvalidGrant(
    `the code was already used: ${revoked} token${revoked === 1 ? '' : 's'} issued from it ${revoked === 1 ? 'is' : 'are'} now revoked (RFC 6749 §4.1.2)`,
  );
}

/** Why a code can no longer be traded whatever is presented with it, or null while it can. */
export function codeDeath(
  record: AuthorizationCode,
  grant: StoredGrant | undefined,
  now: number,
): 'expired' | 'revoked' | null {
  if (record.expiresAt <= now) return 'expired';
  return !grant || grant.revokedAt !== null ? 'revoked' : null;
}
