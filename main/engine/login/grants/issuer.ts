/**
 * What the login service issues and takes back (docs/contract/console.md §2): a grant per consent, a code under it
 * (600 s, single use), then access tokens (86400 s) and refresh tokens. All lifetimes run on the
 * engine clock; revoking a grant ends every token of it at once.
 */
import { EngineError } from '../../api/errors.js';
import { CODE_LIFETIME_MS, tokenStatus, type GrantView, type TokenView } from '../../api/oauth-types.js';
import type { EngineClock } from '../../clock/clock.js';
import type { EventBus } from '../../events/bus.js';
import type { Token, TokenWithGrant } from '../../store/repositories/tokens.js';
import type { Store } from '../../store/store.js';
import { atomically, type AtomicStore } from '../atomic.js';
import type { FlowRecorder } from '../inspector/flow-recorder.js';
import type { RegisteredClient } from '../integrations/integrations.js';
import { newId } from '../../security/random.js';
import type { KnownSecrets } from '../../security/known-secrets.js';
import { hintOf, randomSecret, sha256 } from '../secrets.js';
import { HeldAccessTokens } from './held-tokens.js';
import { RefreshSuccessors } from './refresh-grace.js';

export const ACCESS_TOKEN_LIFETIME_S = 86_400;
const GRANTS_SHOWN = 50;

export interface CodeRequest {
  client: RegisteredClient;
  userId: string;
  householdId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string | null;
  flowId: string;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  scope: string;
  /** Whether the refresh token is a new one (rotation) or the one presented. */
  rotated: boolean;
  /** The new refresh token's id, when one was issued. */
  refreshTokenId?: string;
  /** A rotated refresh token presented again within its grace window: the refresh token is the current one. */
  reusedWithinGrace?: true;
}

type IssuerStore = Pick<Store, 'grants' | 'authorizationCodes' | 'tokens' | 'users' | 'clientKeys'> & AtomicStore;

export class Issuer {
  /** Refresh tokens that replaced others, while those may still be presented (refresh-grace.ts). */
  readonly successors = new RefreshSuccessors();
  /** The newest access token of each grant issued in this run, in memory only (held-tokens.ts). */
  readonly held = new HeldAccessTokens();

  constructor(
    private readonly store: IssuerStore,
    private readonly clock: Pick<EngineClock, 'now'>,
    private readonly recorder: FlowRecorder,
    private readonly bus: Pick<EventBus, 'emit'>,
    /** What it issues is known by value from then on, to be masked wherever it is written (console.md §9). */
    private readonly secrets?: KnownSecrets,
  ) {}

  now(): number {
    return Math.floor(this.clock.now());
  }

  /** A grant for the user's consent and the code that stands for it. */
  issueCode(request: CodeRequest): { code: string; grantId: string; expiresAt: number } {
    const code = randomSecret();
    this.secrets?.add(code);
    const now = this.now();
    const grantId = newId('grant', now);
    const expiresAt = now + CODE_LIFETIME_MS;
    atomically(this.store, () => {
      this.store.grants.create({
        id: grantId,
        integrationId: request.client.integration.id,
        keyId: request.client.key.id,
        userId: request.userId,
        householdId: request.householdId,
        scope: request.scope,
        flowId: request.flowId,
        createdAt: now,
      });
      this.store.authorizationCodes.create({
        codeHash: sha256(code),
        grantId,
        keyId: request.client.key.id,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge,
        issuedAt: now,
        expiresAt,
      });
    });
    this.changed();
    return { code, grantId, expiresAt };
  }

  /**
   * A new access token under `grantId` (its parent: the refresh token it was issued from, if any),
   * with a new refresh token (first issue, or rotation), or handing back the refresh token `keep`
   * names (rotation off: the one presented; within grace: the current one). Call inside a
   * transaction.
   */
  issueTokens(
    grantId: string,
    scope: string,
    refresh: { keep: string; parentId?: string } | { parentId: string | null },
  ): IssuedTokens {
    const now = this.now();
    const accessToken = randomSecret();
    this.secrets?.add(accessToken);
    const parentId = refresh.parentId ?? null;
    const expiresAt = now + ACCESS_TOKEN_LIFETIME_S * 1000;
    this.insertToken(grantId, 'access', accessToken, parentId, now, expiresAt);
    // Held even if the transaction then rolls back: a held token is looked up before it is sent.
    this.held.hold({ grantId, accessToken, issuedAt: now, expiresAt });
    if ('keep' in refresh)
      return { accessToken, refreshToken: refresh.keep, expiresIn: ACCESS_TOKEN_LIFETIME_S, scope, rotated: false };
    const refreshToken = randomSecret();
    this.secrets?.add(refreshToken);
    const created = this.insertToken(grantId, 'refresh', refreshToken, parentId, now, null);
    return {
      accessToken,
      refreshToken,
      expiresIn: ACCESS_TOKEN_LIFETIME_S,
      scope,
      rotated: true,
      refreshTokenId: created.id,
    };
  }

  /** Revokes the grant and every token of it; returns how many tokens stopped working. */
  revokeGrant(grantId: string, reason: string): number {
    const now = this.now();
    const count = atomically(this.store, () => {
      this.store.grants.revoke(grantId, now, reason);
      return this.store.tokens.revokeByGrant(grantId, now, reason);
    });
    const grant = this.store.grants.get(grantId);
    this.recorder.step(grant?.flowId, {
      ok: false,
      summary: `grant revoked: ${reason} (${count} token${count === 1 ? '' : 's'} revoked)`,
      detail: { kind: 'revocation', reason, tokensRevoked: count, grantId },
      status: 'revoked',
    });
    this.changed();
    return count;
  }

  revokeToken(tokenId: string): TokenView {
    const token = this.token(tokenId);
    const now = this.now();
    this.store.tokens.revoke(token.id, now, 'revoked from the console');
    const grant = this.store.grants.get(token.grantId);
    this.recorder.step(grant?.flowId, {
      ok: false,
      summary: `${token.kind} token ${token.hint}… revoked from the console`,
      detail: {
        kind: 'revocation',
        reason: `${token.kind} token revoked from the console`,
        tokensRevoked: 1,
        grantId: token.grantId,
      },
    });
    this.changed();
    return this.tokenView(this.token(tokenId), now);
  }

  /** Moves a token's expiry to now on the engine clock. */
  expireToken(tokenId: string): TokenView {
    const token = this.token(tokenId);
    const now = this.now();
    this.store.tokens.expire(token.id, now);
    this.changed();
    return this.tokenView(this.token(tokenId), now);
  }

  revokeGrantFromConsole(grantId: string): GrantView {
    if (!this.store.grants.get(grantId)) throw new EngineError('not_found', `no grant ${grantId}`);
    this.revokeGrant(grantId, 'revoked from the console');
    return this.grantView(grantId)!;
  }

  grantsOf(integrationId: string): GrantView[] {
    return this.store.grants
      .listByIntegration(integrationId, GRANTS_SHOWN)
      .map((grant) => this.grantView(grant.id))
      .filter((g): g is GrantView => g !== undefined);
  }

  grantView(grantId: string): GrantView | undefined {
    const grant = this.store.grants.get(grantId);
    if (!grant) return undefined;
    const now = this.now();
    const code = this.store.authorizationCodes.findByGrant(grant.id);
    return {
      id: grant.id,
      integrationId: grant.integrationId,
      keyId: grant.keyId,
      clientId: this.store.clientKeys.get(grant.keyId)?.clientId ?? '',
      username: this.store.users.get(grant.userId)?.username ?? grant.userId,
      householdId: grant.householdId,
      scope: grant.scope,
      flowId: grant.flowId,
      createdAt: grant.createdAt,
      revokedAt: grant.revokedAt,
      revokedReason: grant.revokedReason,
      code: code
        ? {
            issuedAt: code.issuedAt,
            expiresAt: code.expiresAt,
            usedAt: code.usedAt,
            redirectUri: code.redirectUri,
            pkce: code.codeChallenge !== null,
          }
        : null,
      tokens: this.store.tokens.listByGrant(grant.id).map((token) => this.tokenView(token, now)),
    };
  }

  /** The live access token behind a bearer value, or why it is not live. */
  lookupAccess(bearer: string): { token: TokenWithGrant; live: boolean; reason: string | null } | null {
    const token = this.store.tokens.findByHash(sha256(bearer));
    if (!token) return null;
    const reason = whyNotLive(token, this.now());
    return { token, live: reason === null, reason };
  }

  private insertToken(
    grantId: string,
    kind: Token['kind'],
    value: string,
    parentId: string | null,
    now: number,
    expiresAt: number | null,
  ): Token {
    return this.store.tokens.create({
      grantId,
      kind,
      tokenHash: sha256(value),
      hint: hintOf(value),
      parentId,
      issuedAt: now,
      expiresAt,
    });
  }

  private token(tokenId: string): Token {
    const token = this.store.tokens.get(tokenId);
    if (!token) throw new EngineError('not_found', `no token ${tokenId}`);
    return token;
  }

  private tokenView(token: Token, now: number): TokenView {
    return {
      id: token.id,
      kind: token.kind,
      hint: token.hint,
      issuedAt: token.issuedAt,
      expiresAt: token.expiresAt,
      rotatedAt: token.rotatedAt,
      revokedAt: token.revokedAt,
      revokedReason: token.revokedReason,
      status: tokenStatus(token, now),
    };
  }

  changed(): void {
    this.bus.emit('oauth.changed', { what: 'grants' });
  }
}

/** Why a token cannot be used as an access token now, or null when it can. */
export function whyNotLive(token: TokenWithGrant, now: number): string | null {
  if (token.kind !== 'access') return 'a refresh token is not an access token';
  if (token.grantRevokedAt !== null) return 'its grant was revoked';
  if (token.revokedAt !== null) return `revoked (${token.revokedReason ?? 'no reason given'})`;
  if (token.expiresAt !== null && token.expiresAt <= now) return 'expired';
  return null;
}
