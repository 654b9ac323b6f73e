/**
 * Redirect capture (docs/login-service.md): with a real redirect URI such as
 * `https://myapp.example.com/cb`, the browser used to take the code to that host, and load the
 * error page there again on every reload. With the `captureRedirects` setting on (the default),
 * the login service keeps every redirect that would leave this machine: instead of the 302 it
 * answers a 303 to a page of its own (`CAPTURED_PATH`), and the code stays in the console.
 *
 * The page never holds the code (a screenshot, a second load or the browser's history cannot
 * leak it) and says where to get it: the console reveals it once (`oauth.revealCode`), with the
 * token request as a curl line that carries it. The code is held in memory only (codes are
 * stored as hashes, docs/contract/console.md §9), until it is revealed or its 600 s are over.
 * The host's OAuth window (Electron) hands what it captured here too, so both show it alike.
 *
 * What is not captured: a loopback redirect URI (an app on this machine gets its code, and it
 * never leaves the machine) and any URL the console itself serves (the sample integration).
 */
import { EngineError } from '../../api/errors.js';
import { CODE_LIFETIME_MS, TOKEN_PATH, type CapturedCodeView, type RevealedCode } from '../../api/oauth-types.js';
import type { ServiceUrls } from '../../api/types.js';
import { escapeHtml as e, layout, pageHeaders } from '../endpoints/pages.js';
import { isLoopbackRedirectUri } from '../integrations/redirect-uri.js';
import { withQuery } from '../params.js';
import { CAPTURED_PATH } from '../paths.js';
import type { KnownSecrets } from '../../security/known-secrets.js';

/** Captures kept (and pages served) at once: the oldest goes first. */
const MAX_CAPTURES = 200;

export interface CaptureInput {
  flowId: string;
  redirectUri: string;
  clientId: string;
  /** Engine time the code was issued (the redirect's time for an error). */
  at: number;
  code?: string;
  state?: string;
  error?: { error: string; description: string };
  /** Whether the code is tied to a PKCE challenge, and its verifier when the console made it. */
  pkce: boolean;
  codeVerifier: string | null;
  by: 'login service' | 'window';
}

interface Capture extends Omit<CaptureInput, 'code'> {
  /** Until it is revealed (then null). */
  code: string | null;
  hadCode: boolean;
  revealedAt: number | null;
}

export interface RedirectCaptureDeps {
  urls: () => ServiceUrls;
  now: () => number;
  /** The `captureRedirects` setting. */
  enabled: () => boolean;
  /** Told the code and verifier a reveal hands out: wherever the answer is kept, they are masked by value. */
  secrets?: KnownSecrets;
}

export class RedirectCapture {
  private readonly byFlow = new Map<string, Capture>();

  constructor(private readonly deps: RedirectCaptureDeps) {}

  /** Whether a redirect to `redirectUri` is kept here: the setting is on, and it would leave the machine. */
  captures(redirectUri: string): boolean {
    if (!this.deps.enabled()) return false;
    if (isLoopbackRedirectUri(redirectUri)) return false;
    const urls = this.deps.urls();
    return !Object.values(urls).some((served) => redirectUri === served || redirectUri.startsWith(`${served}/`));
  }

  /** Holds what the redirect carried; answers the page's URL on the login service. */
  hold(input: CaptureInput): string {
    this.byFlow.delete(input.flowId);
    this.byFlow.set(input.flowId, {
      ...input,
      code: input.code ?? null,
      hadCode: input.code !== undefined,
      revealedAt: null,
    });
    if (this.byFlow.size > MAX_CAPTURES) this.byFlow.delete(this.byFlow.keys().next().value!);
    return withQuery(`${this.deps.urls().login}${CAPTURED_PATH}`, { flow: input.flowId });
  }

  /** Where a flow's captured code stands; undefined for a flow with none captured in this run. */
  view(flowId: string): CapturedCodeView | undefined {
    const capture = this.byFlow.get(flowId);
    if (!capture || !capture.hadCode) return undefined;
    return {
      by: capture.by,
      redirectUri: capture.redirectUri,
      state: this.stateOf(capture),
      revealedAt: capture.revealedAt,
      expiresAt: capture.at + CODE_LIFETIME_MS,
    };
  }

  /** The code, once: then it is forgotten, and a second reveal is refused with why. */
  reveal(flowId: string): RevealedCode {
    const capture = this.byFlow.get(flowId);
    if (!capture || !capture.hadCode) {
      throw new EngineError(
        'not_found',
        `flow ${flowId} has no captured code: the console holds a code only when it kept a redirect in this run (captureRedirects, or the OAuth window), and only in memory`,
      );
    }
    const state = this.stateOf(capture);
    if (state === 'revealed') {
      throw new EngineError(
        'conflict',
        `the code of flow ${flowId} was revealed already (engine time ${capture.revealedAt}): the console shows a captured code once. Run the flow again for a new code`,
      );
    }
    if (state === 'expired') {
      capture.code = null;
      throw new EngineError(
        'conflict',
        `the code of flow ${flowId} expired (codes live ${CODE_LIFETIME_MS / 1_000} s): run the flow again for a new one`,
      );
    }
    const code = capture.code!;
    capture.code = null;
    capture.revealedAt = this.deps.now();
    this.deps.secrets?.add(code);
    this.deps.secrets?.add(capture.codeVerifier);
    return {
      flowId,
      code,
      redirectUri: capture.redirectUri,
      ...(capture.state !== undefined ? { state: capture.state } : {}),
      expiresAt: capture.at + CODE_LIFETIME_MS,
      curl: tokenRequestCurl({
        login: this.deps.urls().login,
        clientId: capture.clientId,
        code,
        redirectUri: capture.redirectUri,
        pkce: capture.pkce,
        codeVerifier: capture.codeVerifier,
      }),
    };
  }

  /** The page a captured redirect lands on: what happened, never the code. */
  page(flowId: string | undefined): { status: number; headers: Record<string, string>; body: string } {
    const capture = flowId === undefined ? undefined : this.byFlow.get(flowId);
    if (!capture) {
      return {
        status: 404,
        headers: pageHeaders(),
        body: layout(
          'Nothing captured here · Login service',
          '<p class="eyebrow">Login service</p><h1>Nothing captured here</h1><p>This console holds no captured redirect for this address (a restart forgets them).</p>',
        ),
      };
    }
    return { status: 200, headers: pageHeaders(), body: capturedPage(capture, this.stateOf(capture)) };
  }

  private stateOf(capture: Capture): CapturedCodeView['state'] {
    if (capture.revealedAt !== null) return 'revealed';
    if (this.deps.now() >= capture.at + CODE_LIFETIME_MS) return 'expired';
    return 'revealable';
  }
}

/** A word a POSIX shell reads back as `value`. */
const quoted = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * The token request the app makes with the code (docs/contract/console.md §2), the code filled
 * in; the client secret (stored hashed) comes from the shell's `$CLIENT_SECRET`, and the PKCE
 * verifier from `$CODE_VERIFIER` unless the console made it.
 */
export function tokenRequestCurl(input: {
  login: string;
  clientId: string;
  code: string;
  redirectUri: string;
  pkce: boolean;
  codeVerifier: string | null;
}): string {
  const verifier = !input.pkce
    ? []
    : input.codeVerifier
      ? [`--data-urlencode ${quoted(`code_verifier=${input.codeVerifier}`)}`]
      : ['--data-urlencode "code_verifier=$CODE_VERIFIER"'];
  return [
    `curl -sS -u ${quoted(encodeURIComponent(input.clientId))}:"$CLIENT_SECRET"`,
    '--data-urlencode grant_type=authorization_code',
    `--data-urlencode ${quoted(`code=${input.code}`)}`,
    `--data-urlencode ${quoted(`redirect_uri=${input.redirectUri}`)}`,
    ...verifier,
    quoted(`${input.login}${TOKEN_PATH}`),
  ].join(' \\\n  ');
}

function capturedPage(capture: Capture, state: CapturedCodeView['state']): string {
  const what = capture.error
    ? `<p>The login service answered <code>${e(capture.error.error)}</code>: ${e(capture.error.description)}</p>`
    : state === 'revealed'
      ? '<p>The console held the code, and it has been revealed once on its OAuth page: it is not shown again.</p>'
      : state === 'expired'
        ? '<p>The code the console held has expired (600 s). Run the flow again for a new one.</p>'
        : '<p>The console holds the code. Reveal it once on the console\u2019s OAuth page (this flow, <strong>Reveal code</strong>), with the token request as a curl line, or with the admin API: <code>oauth.revealCode</code>.</p>';
  return layout(
    'Redirect captured · Login service',
    `<p class="eyebrow">${capture.by === 'window' ? 'Cloud Queue Console · OAuth window' : 'Login service'} · redirect captured</p>
<h1>Redirect captured</h1>
<p>${capture.by === 'window' ? 'The console\u2019s OAuth window stopped at' : 'The login service did not send your browser to'} <code>${e(capture.redirectUri)}</code>${capture.by === 'window' ? ', so it works even when nothing listens there' : ': the console does not serve that address'}, and the ${capture.error ? 'answer' : 'code'} never left this machine.</p>
${what}
<table>
<tr><td>flow</td><td><code>${e(capture.flowId)}</code></td></tr>
<tr><td>redirect URL</td><td><code>${e(capture.redirectUri)}</code></td></tr>
${capture.state !== undefined ? `<tr><td>state</td><td><code>${e(capture.state)}</code></td></tr>` : ''}
</table>
<p class="muted">Reloading this page sends nothing anywhere. To let redirects go to their redirect URL, turn off "Capture redirects" in the login service settings.</p>`,
  );
}
