/**
 * The request an app makes next with a code issued to its own redirect URI: the token request of
 * docs/contract/console.md §2, as a curl line to paste into a shell. The code and the client secret stay out of it
 * (the console keeps only their hashes): they come from the shell's CODE and CLIENT_SECRET.
 */
import { TOKEN_PATH, type FlowView } from '@engine-api/oauth-types';

/** The verifier as the pasted line asks the shell for it, when the app holds it. */
export const APP_VERIFIER = '$CODE_VERIFIER';

export interface TokenRequest {
  /** The login service's URL (`urls.login`). */
  login: string;
  clientId: string;
  redirectUri: string;
  /** The PKCE verifier when known (a flow started here), APP_VERIFIER when the app holds it, null without PKCE. */
  codeVerifier: string | null;
  /**
   * The flow was started by this console, whose window kept the verifier in memory, and it is gone
   * (a reload): no one has it, so the code cannot be traded.
   */
  verifierLost: boolean;
  /** Engine time the code was issued. */
  issuedAt: number;
}

/** A word a POSIX shell reads back as `value`. */
const quoted = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/** Flows this console starts, whose PKCE verifier it makes (and keeps only in the window's memory). */
const STARTED_BY_CONSOLE: readonly FlowView['origin'][] = ['browser', 'window'];

/**
 * A flow's pending token request, or null when it has none: no code out, the code traded (or its
 * grant revoked), a code the console trades itself (the sample integration's, `sample`), or one
 * whose integration was deleted since (`deleted`: no client is left to trade it). A failed try (a
 * wrong secret, a missing verifier) leaves the code unused, so the request stays.
 */
export function pendingTokenRequest(
  flow: FlowView,
  login: string,
  startedVerifier: string | null,
  { sample = false, deleted = false } = {},
): TokenRequest | null {
  if (flow.origin === 'sample' || sample || deleted || !flow.clientId) return null;
  const at = flow.steps.findLastIndex((step) => step.detail.kind === 'redirect' && step.detail.code !== undefined);
  const redirect = flow.steps[at];
  if (!redirect || redirect.detail.kind !== 'redirect') return null;
  const settled = flow.steps
    .slice(at + 1)
    .some(
      (step) =>
        step.detail.kind === 'revocation' ||
        (step.detail.kind === 'token' && step.ok && step.detail.grantType === 'authorization_code'),
    );
  if (settled) return null;
  const authorize = flow.steps.slice(0, at).findLast((step) => step.detail.kind === 'authorize');
  const challenged = authorize?.detail.kind === 'authorize' && authorize.detail.params.code_challenge !== undefined;
  const verifierLost = challenged && startedVerifier === null && STARTED_BY_CONSOLE.includes(flow.origin);
  return {
    login,
    clientId: flow.clientId,
    redirectUri: redirect.detail.redirectUri,
    codeVerifier: challenged ? (startedVerifier ?? APP_VERIFIER) : null,
    verifierLost,
    issuedAt: redirect.at,
  };
}

/**
 * The request as curl. Basic authentication form-encodes the id before Base64 (RFC 6749 §2.3.1);
 * the console's client ids (UUIDs) and secrets (base64url) are left as they are by form-encoding.
 */
export function tokenRequestCurl({ login, clientId, redirectUri, codeVerifier }: TokenRequest): string {
  const verifier =
    codeVerifier === null
      ? []
      : [
          codeVerifier === APP_VERIFIER
            ? `--data-urlencode "code_verifier=${APP_VERIFIER}"`
            : `--data-urlencode ${quoted(`code_verifier=${codeVerifier}`)}`,
        ];
  return [
    `curl -sS -u ${quoted(encodeURIComponent(clientId))}:"$CLIENT_SECRET"`,
    '--data-urlencode grant_type=authorization_code',
    '--data-urlencode "code=$CODE"',
    `--data-urlencode ${quoted(`redirect_uri=${redirectUri}`)}`,
    ...verifier,
    quoted(`${login}${TOKEN_PATH}`),
  ].join(' \\\n  ');
}
