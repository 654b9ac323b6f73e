/**
 * The refresh_token grant (RFC 6749 §6, docs/contract/console.md §2): a refresh token is good for
 * the client it was issued to while it and its grant are live. With rotation on (the default),
 * each exchange replaces it, and a rotated token presented again revokes the whole grant
 * (refresh token reuse: someone else may hold a copy), unless it comes within the integration's
 * grace window (`refreshGraceSec`, refresh-grace.ts): clients that refresh twice at once get a new
 * access token and the current refresh token, and nothing is revoked. With rotation off, it stays
 * valid.
 */
import { OAUTH_SCOPE } from '../../api/oauth-types.js';
import type { TokenWithGrant } from '../../store/repositories/tokens.js';
import { InvalidGrant, InvalidRequest, InvalidScope } from '../oauth-error.js';
import { sha256 } from '../secrets.js';
import { clientOf, defineGrant, foundBy, type TokenExchange, type Verdict } from './grant.js';
import type { IssuedTokens } from './issuer.js';
import type { Successor } from './refresh-grace.js';
import { TOKEN_REQUEST_STEPS } from './token-request.js';

interface RefreshExchange extends TokenExchange {
  /** Set by `findRefreshToken`: the refresh token as presented, and its record. */
  refresh: { presented: string; token: TokenWithGrant } | null;
  /** The engine time the token was judged live at; it is rotated at the same time. */
  now: number;
  /** Set when a rotated token came back within its grace window: the current refresh token. */
  current: Successor | null;
}

export const REFRESH_TOKEN_GRANT = defineGrant<RefreshExchange>({
  grantType: 'refresh_token',
  begin: (exchange) => ({ ...exchange, refresh: null, now: 0, current: null }),
  steps: [
    ...TOKEN_REQUEST_STEPS,
    { check: 'refresh_token', label: 'refresh_token is known', run: findRefreshToken },
    { check: 'refresh_client', label: 'refresh_token was issued to this client', run: requireSameClient },
    {
      check: 'refresh_live',
      label: 'refresh_token and its grant are live (not revoked, not expired)',
      run: requireLiveToken,
    },
    {
      check: 'refresh_unused',
      label: 'refresh_token was not already exchanged (rotation), or only just, within the grace window',
      run: refuseReusedToken,
    },
    { check: 'scope', label: `scope, if sent, is ${OAUTH_SCOPE}`, run: limitScope },
  ],
  // Two refreshes racing with one token under rotation: only one rotates it, the other is a
  // reuse (within the grace window, answered as one).
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
  if (refreshOf(exchange).token.clientId !== clientOf(exchange).key.clientId)
    throw new InvalidGrant('the refresh token was issued to another client');
  return undefined;
}

function requireLiveToken(exchange: RefreshExchange): Verdict {
  const { token } = refreshOf(exchange);
  if (token.grantRevokedAt !== null) throw new InvalidGrant('the grant of this refresh token was revoked');
  if (token.revokedAt !== null)
    throw new InvalidGrant(`the refresh token was revoked (${token.revokedReason ?? 'no reason given'})`);
  const now = exchange.issuer.now();
  if (token.expiresAt !== null && token.expiresAt <= now) throw new InvalidGrant('the refresh token expired');
  exchange.now = now;
  return undefined;
}

function refuseReusedToken(exchange: RefreshExchange): Verdict {
  const { rotatedAt } = refreshOf(exchange).token;
  if (rotatedAt !== null) return allowWithinGrace(exchange, rotatedAt);
  return clientOf(exchange).integration.rotateRefreshTokens
    ? 'rotation on'
    : 'rotation off: the refresh token stays valid';
}

/**
 * A rotated token presented again: within its integration's refreshGraceSec of its rotation, and
 * while the token that replaced it is still the current one, it answers (with that one); else it
 * is a reuse, which revokes the grant.
 */
function allowWithinGrace(exchange: RefreshExchange, rotatedAt: number): Verdict {
  const { token } = refreshOf(exchange);
  const graceSec = clientOf(exchange).integration.refreshGraceSec;
  const ago = exchange.now - rotatedAt;
  if (ago >= graceSec * 1000)
    throw revokeReusedToken(
      exchange,
      graceSec === 0 ? 'grace window off' : `rotated ${seconds(ago)} ago, grace ${graceSec} s`,
    );
  const current = exchange.issuer.successors.successorOf(token.id, exchange.now);
  if (!current) {
    // Within the window, but the token that replaced it was issued before a restart (or a
    // window widened since): it cannot be handed out again, and this is no reuse to punish.
    throw new InvalidGrant(
      `the refresh token was rotated ${seconds(ago)} ago, within the grace window, but the console no longer holds the current one (restarted since): use the refresh token the other refresh returned`,
    );
  }
  const record = exchange.store.tokens.get(current.id);
  if (
    !record ||
    record.rotatedAt !== null ||
    record.revokedAt !== null ||
    (record.expiresAt !== null && record.expiresAt <= exchange.now)
  ) {
    // The chain moved on: this token is no longer the one just rotated away.
    throw revokeReusedToken(exchange, 'the token that replaced it is no longer the current one');
  }
  exchange.current = current;
  return `reused within grace: rotated ${seconds(ago)} ago (grace ${graceSec} s); answered with the current refresh token, nothing revoked`;
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
  const { integration } = clientOf(exchange);
  if (exchange.current) return issueWithinGrace(exchange, exchange.current);
  const rotate = integration.rotateRefreshTokens;
  if (rotate && !exchange.store.tokens.markRotated(token.id, exchange.now)) {
    // Another request rotated it since this one read it: a race, which the window is for.
    const rotatedAt = exchange.store.tokens.get(token.id)?.rotatedAt ?? exchange.now;
    allowWithinGrace(exchange, rotatedAt);
    return issueWithinGrace(exchange, exchange.current!);
  }
  const issued = exchange.issuer.issueTokens(
    token.grantId,
    token.scope,
    rotate ? { parentId: token.id } : { keep: presented },
  );
  if (rotate && integration.refreshGraceSec > 0 && issued.refreshTokenId) {
    exchange.issuer.successors.remember(
      token.id,
      { id: issued.refreshTokenId, value: issued.refreshToken },
      exchange.now + integration.refreshGraceSec * 1000,
      exchange.now,
    );
  }
  exchange.issuer.changed();
  return issued;
}

/** A new access token under the presented token, and the current refresh token; nothing revoked. */
function issueWithinGrace(exchange: RefreshExchange, current: Successor): IssuedTokens {
  const { token } = refreshOf(exchange);
  const issued = exchange.issuer.issueTokens(token.grantId, token.scope, { keep: current.value, parentId: token.id });
  exchange.issuer.changed();
  return { ...issued, reusedWithinGrace: true };
}

/** A rotated refresh token presented again: the whole grant is revoked. */
function revokeReusedToken(exchange: RefreshExchange, why: string): InvalidGrant {
  const revoked = exchange.issuer.revokeGrant(refreshOf(exchange).token.grantId, 'rotated refresh token used again');
  exchange.trace.revoked = true;
  return new InvalidGrant(
    `refresh token reuse (${why}): it was already exchanged for a new one, so the whole grant is revoked (${revoked} token${revoked === 1 ? '' : 's'})`,
  );
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
