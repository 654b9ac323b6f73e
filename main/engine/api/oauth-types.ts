/**
 * What the login service shows its hosts (docs/contract/console.md §2, §7): integrations with their keys and
 * redirect URIs, grants and tokens, settings, and the OAuth flow inspector's timeline. Pure types:
 * both the Node side and the web side compile this file. Secrets and tokens never appear here
 * except the client secret, once, when it is created.
 */

/** The one scope of the platform (docs/contract/platform.md §1.3). */
export const OAUTH_SCOPE = 'playback-control-all';

/** What the console says of a redirect URI that only works on this machine (docs/contract/console.md §2). */
export const LOOPBACK_WARNING = 'production would reject this';

/** refreshGraceSec unless an integration sets it (docs/contract/console.md §2), and the most it may be. */
export const REFRESH_GRACE_DEFAULT_SEC = 30;
export const REFRESH_GRACE_MAX_SEC = 3_600;

export interface LoginSettings {
  /** Skip the login and consent pages (scripted runs). */
  autoApprove: boolean;
  /** Behave as production does: loopback redirect URIs are rejected. */
  productionParity: boolean;
  /**
   * Keep every redirect that would leave this machine (a redirect URI that is not loopback and
   * not served by the console): the login service answers a page of its own instead, and the
   * code waits in the console for a one-time reveal (docs/login-service.md). On by default.
   */
  captureRedirects: boolean;
}

export interface RedirectUriView {
  id: string;
  uri: string;
  /** A loopback http(s) URL: accepted for local testing only. */
  loopback: boolean;
  /** `production would reject this` for loopback URLs, else null. */
  warning: string | null;
}

export interface ClientKeyView {
  id: string;
  name: string;
  clientId: string;
  /** The first characters of the current secret, to tell secrets apart (the secret itself is stored hashed). */
  secretHint: string;
  secretSetAt: number;
  createdAt: number;
  redirectUris: RedirectUriView[];
  /** Where the console sends this key's events (docs/events.md); null: none, and subscribing is refused. */
  eventCallbackUrl: string | null;
  /** Why the platform could never call `eventCallbackUrl` (a private or link-local address), else null. */
  eventCallbackWarning: string | null;
}

export interface IntegrationView {
  id: string;
  name: string;
  description: string;
  category: string;
  /** Refresh token rotation with reuse detection (docs/contract/console.md §2); on by default. */
  rotateRefreshTokens: boolean;
  /**
   * Seconds a refresh token just rotated away still answers, with a new access token and the
   * current refresh token, revoking nothing (docs/contract/console.md §2); 0: strict rotation.
   */
  refreshGraceSec: number;
  /** The console's own sample integration (registered on the console's callback URL). */
  sample: boolean;
  createdAt: number;
  updatedAt: number;
  /** The first key's client id and redirect URIs (the shape of docs/contract/console.md §7). */
  clientId: string | null;
  redirectUris: string[];
  /** One line per redirect URI that only works here: "<uri>: production would reject this". */
  warnings: string[];
  keys: ClientKeyView[];
}

/** An integration as created: the only time its first key's secret is shown. */
export interface CreatedIntegration extends IntegrationView {
  clientSecret: string;
}

/** A key with a fresh secret, shown once. */
export interface IssuedClientSecret {
  integrationId: string;
  key: ClientKeyView;
  clientId: string;
  clientSecret: string;
}

export type TokenKind = 'access' | 'refresh';
export type TokenStatus = 'active' | 'expired' | 'revoked' | 'rotated';

export interface TokenView {
  id: string;
  kind: TokenKind;
  /** The first characters of the token (the token itself is stored hashed). */
  hint: string;
  issuedAt: number;
  /** Engine time of expiry; null for refresh tokens, which live until used, revoked or expired by hand. */
  expiresAt: number | null;
  rotatedAt: number | null;
  revokedAt: number | null;
  revokedReason: string | null;
  /** At the engine time of the answer; hosts recompute it as their clock moves. */
  status: TokenStatus;
}

export interface AuthorizationCodeView {
  issuedAt: number;
  expiresAt: number;
  usedAt: number | null;
  redirectUri: string;
  pkce: boolean;
}

export interface GrantView {
  id: string;
  integrationId: string;
  keyId: string;
  clientId: string;
  username: string;
  householdId: string;
  scope: string;
  /** The inspector flow this grant came from. */
  flowId: string | null;
  createdAt: number;
  revokedAt: number | null;
  revokedReason: string | null;
  code: AuthorizationCodeView | null;
  tokens: TokenView[];
}

/** Token status at engine time `now`, one rule for the engine and the renderer. */
export function tokenStatus(token: Pick<TokenView, 'expiresAt' | 'rotatedAt' | 'revokedAt'>, now: number): TokenStatus {
  if (token.revokedAt !== null) return 'revoked';
  if (token.rotatedAt !== null) return 'rotated';
  if (token.expiresAt !== null && token.expiresAt <= now) return 'expired';
  return 'active';
}

/** The login service's token endpoint (docs/contract/console.md §2), where an app trades its code. */
export const TOKEN_PATH = '/login/v3/oauth/access';
/** How long an authorization code lives unused, on the engine clock (docs/contract/console.md §2: 600 s). */
export const CODE_LIFETIME_MS = 600_000;

// ---- The OAuth flow inspector ----------------------------------------------------------------

/** Where a flow started: a browser tab, the Electron OAuth window, the sample integration, or an app of the user's. */
/** Where a flow began; `console`: the console's own token (command bar, scenarios). */
export type FlowOrigin = 'browser' | 'window' | 'sample' | 'external' | 'console';

export type FlowStatus = 'started' | 'signing_in' | 'code_issued' | 'tokens_issued' | 'denied' | 'failed' | 'revoked';

/** One line of a checklist: what was validated, and whether it passed (null: not reached). */
export interface FlowCheck {
  id: string;
  label: string;
  ok: boolean | null;
  detail?: string;
}

/** A presented redirect URI against the registered ones, character by character. */
export interface RedirectComparison {
  presented: string;
  registered: string[];
  /** The registered URI closest to the presented one. */
  closest: string | null;
  /** Index of the first character that differs from `closest`; null when they are equal. */
  firstDifference: number | null;
  /** Plain words on what differs (scheme, port, trailing slash, case, encoding…). */
  hints: string[];
}

/** An HTTP Basic header as the token endpoint read it (RFC 6749 §2.3.1), secret masked. */
export interface BasicHeaderReport {
  present: boolean;
  scheme: string | null;
  /** The decoded client id (form-urldecoded). */
  clientId: string | null;
  /** The secret, masked, with its length. */
  secret: string | null;
  problems: string[];
  verdict: 'ok' | 'malformed' | 'missing' | 'unknown_client' | 'wrong_secret';
}

export interface OAuthErrorView {
  error: string;
  description: string;
}

export type FlowStepDetail =
  | {
      kind: 'authorize';
      /** Every query parameter as received (duplicates show as several values). */
      params: Record<string, string[]>;
      checks: FlowCheck[];
      outcome: 'login' | 'auto_approve' | 'error_page' | 'error_redirect';
      redirectComparison?: RedirectComparison;
      error?: OAuthErrorView;
    }
  | { kind: 'login'; username: string; ok: boolean; reason?: string; requestBody?: FlowRequestBody }
  | { kind: 'consent'; decision: 'allow' | 'deny' | 'auto_approve'; username: string; requestBody?: FlowRequestBody }
  | { kind: 'redirect'; location: string; redirectUri: string; code?: string; state?: string; error?: OAuthErrorView }
  | {
      kind: 'token';
      grantType: string | null;
      basic: BasicHeaderReport;
      /** Form parameters, with codes and tokens masked. */
      params: Record<string, string[]>;
      checks: FlowCheck[];
      status: number;
      error?: OAuthErrorView;
      /** `reusedWithinGrace`: a rotated refresh token presented again within its integration's refreshGraceSec. */
      issued?: {
        accessToken: string;
        refreshToken: string;
        expiresIn: number;
        scope: string;
        rotated: boolean;
        reusedWithinGrace?: true;
      };
      requestBody?: FlowRequestBody;
    }
  | { kind: 'revocation'; reason: string; tokensRevoked: number; grantId: string }
  | {
      kind: 'api_call';
      method: string;
      path: string;
      status: number;
      token: string;
      accepted: boolean;
      reason?: string;
    }
  | { kind: 'navigation'; url: string; event: WindowNavigationEvent }
  | {
      kind: 'callback';
      url: string;
      code?: string;
      state?: string;
      stateMatches: boolean | null;
      captured: boolean;
      error?: OAuthErrorView;
      /** Who kept the redirect: the login service (`captureRedirects`) or the host's OAuth window. */
      capturedBy?: 'login service' | 'window';
      /** The console holds the code for one reveal (`oauth.revealCode`); `FlowView.capturedCode` says whether it still does. */
      revealable?: boolean;
    }
  | {
      kind: 'sample';
      action: 'exchange' | 'households';
      ok: boolean;
      status: number | null;
      message: string;
      households?: string[];
    };

export type FlowStepKind = FlowStepDetail['kind'];

/**
 * The body of the request a step answered (a sign-in or consent form, a token request), as sent,
 * with the value of every parameter named like a secret masked as the inspector masks them.
 */
export interface FlowRequestBody {
  contentType: string;
  text: string;
}

/** A code the console kept from a captured redirect (docs/login-service.md). */
export interface CapturedCodeView {
  by: 'login service' | 'window';
  redirectUri: string;
  /** `revealable`: held for one reveal; `revealed`: shown once, forgotten; `expired`: its 600 s are over. */
  state: 'revealable' | 'revealed' | 'expired';
  revealedAt: number | null;
  expiresAt: number;
}

/** `oauth.revealCode`'s answer, given once per captured code. */
export interface RevealedCode {
  flowId: string;
  code: string;
  redirectUri: string;
  state?: string;
  expiresAt: number;
  /** The token request with the code in it; the client secret comes from `$CLIENT_SECRET`. */
  curl: string;
}

export interface FlowStepView {
  seq: number;
  flowId: string;
  /** Engine time. */
  at: number;
  kind: FlowStepKind;
  ok: boolean;
  summary: string;
  detail: FlowStepDetail;
}

export interface FlowSummary {
  id: string;
  origin: FlowOrigin;
  integrationId: string | null;
  integrationName: string | null;
  clientId: string | null;
  status: FlowStatus;
  startedAt: number;
  updatedAt: number;
  stepCount: number;
}

export interface FlowView extends FlowSummary {
  steps: FlowStepView[];
  /** A code kept from a captured redirect of this flow in this run, and whether it can still be revealed. */
  capturedCode?: CapturedCodeView;
}

/** What a host's OAuth window saw: a navigation, a server redirect, a loaded page. */
export type WindowNavigationEvent = 'navigate' | 'redirect' | 'load' | 'fail';

/** A flow started from the console: where to send the browser, and who opens it. */
export interface StartedFlow {
  flowId: string;
  authorizeUrl: string;
  redirectUri: string;
  /** `host`: the host opened its own OAuth window; `renderer`: open `authorizeUrl` yourself. */
  openedBy: 'host' | 'renderer';
}

/** What the host's OAuth window does with a navigation it reported. */
export interface NavigationVerdict {
  /** `capture`: stop here and show `page` (the redirect to the integration's redirect URI). */
  action: 'continue' | 'capture';
  page?: string;
}
