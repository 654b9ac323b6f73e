/**
 * The refresh_token grant (RFC 6749 §6, docs/contract/console.md §2): a refresh token is good for
 * the client it was issued to while it and its grant are live. With rotation on (the default),
 * each exchange replaces it, and a rotated token presented again revokes the whole grant
 * (refresh token reuse: someone else may hold a copy). With rotation off, it stays valid.
 */
import { OAUTH_SCOPE } from '../../api/oauth-types.js';
import type { TokenWithGrant } from '../../store/repositories/tokens.js';
import { InvalidGrant, InvalidRequest, InvalidScope } from '../oauth-error.js';
import { sha256 } from '../secrets.js';
import { clientOf, defineGrant, foundBy, type TokenExchange, type Verdict } from './grant.js';
import type { IssuedTokens } from './issuer.js';
import { TOKEN_REQUEST_STEPS } from './token-request.js';

interface RefreshExchange extends TokenExchange {
  /** Set by `findRefreshToken`: the refresh token as presented, and its record. */
  refresh: { presented: string; token: TokenWithGrant } | null;
  /** The engine time the token was judged live at; it is rotated at the same time. */
  now: number;
}

export const REFRESH_TOKEN_GRANT = defineGrant<RefreshExchange>({
  grantType: 'refresh_token',
  begin: (exchange) => ({ ...exchange, refresh: null, now: 0 }),
  steps: [
    ...TOKEN_REQUEST_STEPS,
    { check: 'refresh_token', label: 'refresh_token is known', run: findRefreshToken },
    { check: 'refresh_client', label: 'refresh_token was issued to this client', run: requireSameClient },
    { check: 'refresh_live', label: 'refresh_token and its grant are live (not revoked, not expired)', run: requireLiveToken },
    { check: 'refresh_unused', label: 'refresh_token was not already exchanged (rotation)', run: refuseReusedToken },
    { check: 'scope', label: `scope, if sent, is ${OAUTH_SCOPE}`, run: limitScope },
  ],
  // Two refreshes racing with one token under rotation: only one rotates it, the other is a reuse.
  issue: { failsAs: 'refresh_unused', run: rotateAndIssue },
});

const refreshOf = (exchange: RefreshExchange) => foundBy(exchange.refresh, 'findRefreshToken');

function findRefreshToken(exchange: RefreshExchange): Verdict {
  const presented = exchange.form.single('refresh_token');
  if (presented === undefined) throw new InvalidRequest('refresh_token is missing');
  const token = exchange.store.tokens.findByHash(sha256(presented));
  if (!token) throw new InvalidGrant('the refresh token is unknown');
  exchange.trace.flowId = token.flowId;
  if (token.kind !== 'refresh') throw new InvalidGrant('that is an access token, not a refresh token');
  exchange.refresh = { presented, token };
  return undefined;
}

function requireSameClient(exchange: RefreshExchange): Verdict {
  if (refreshOf(exchange).token.clientId !== clientOf(exchange).key.clientId) throw new InvalidGrant('the refresh token was issued to another client');
  return undefined;
}

function requireLiveToken(exchange: RefreshExchange): Verdict {
  const { token } = refreshOf(exchange);
  if (token.grantRevokedAt !== null) throw new InvalidGrant('the grant of this refresh token was revoked');
  if (token.revokedAt !== null) throw new InvalidGrant(`the refresh token was revoked (${token.revokedReason ?? 'no reason given'})`);
  const now = exchange.issuer.now();
  if (token.expiresAt !== null && token.expiresAt <= now) throw new InvalidGrant('the refresh token expired');
  exchange.now = now;
  return undefined;
}

function refuseReusedToken(exchange: RefreshExchange): Verdict {
  if (refreshOf(exchange).token.rotatedAt !== null) throw revokeReusedToken(exchange);
  return clientOf(exchange).integration.rotateRefreshTokens ? 'rotation on' : 'rotation off: the refresh token stays valid';
}

function limitScope({ form }: RefreshExchange): Verdict {
  const scope = form.single('scope');
  if (form.has('scope') && (scope === undefined || scope.split(' ').some((s) => s !== '' && s !== OAUTH_SCOPE))) {
    throw new InvalidScope(`scope may only be ${OAUTH_SCOPE} (the scope of the grant)`);
  }
  return undefined;
}

function rotateAndIssue(exchange: RefreshExchange): IssuedTokens {
  const { presented, token } = refreshOf(exchange);
  const rotate = clientOf(exchange).integration.rotateRefreshTokens;
  if (rotate && !exchange.store.tokens.markRotated(token.id, exchange.now)) throw revokeReusedToken(exchange);
  const issued = exchange.issuer.issueTokens(token.grantId, token.scope, rotate ? { parentId: token.id } : { keep: presented });
  exchange.issuer.changed();
  return issued;
}

/** A rotated refresh token presented again: the whole grant is revoked. */
function revokeReusedToken(exchange: RefreshExchange): InvalidGrant {
  const revoked = exchange.issuer.revokeGrant(refreshOf(exchange).token.grantId, 'rotated refresh token used again');
  exchange.trace.revoked = true;
  return new InvalidGrant(`refresh token reuse: it was already exchanged for a new one, so the whole grant is revoked (${revoked} token${revoked === 1 ? '' : 's'})`);
}
