/**
 * The login service's pages (docs/contract/console.md §2): sign-in ("Username", "Password", "Sign in"), consent
 * (the integration's name and description, the scope, "Allow" and "Deny") and the 400 page for a
 * request that cannot be answered with a redirect. Plain HTML, no script, every value escaped.
 */
import { OAUTH_SCOPE, type FlowCheck, type RedirectComparison } from '../../api/oauth-types.js';
import { CONSENT_PATH, SIGN_IN_PATH } from '../paths.js';

export const SCOPE_TEXT =
  'see what is playing, change playback and volume, change rooms and groups, and play favorites and playlists';

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}
const e = escapeHtml;

const STYLE = `
:root{color-scheme:light dark;--fg:#1d232b;--muted:#5f6b7a;--bg:#f4f6f8;--card:#fff;--line:#d6dbe1;--accent:#1f6fd1;--bad:#c23b3b;--ok:#1e8a55}
@media (prefers-color-scheme:dark){:root{--fg:#d8dee7;--muted:#8b95a3;--bg:#111418;--card:#171b21;--line:#2a313b;--accent:#5aa9ff;--bad:#ef6a6a;--ok:#4cc38a}}
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
main{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:28px 32px;width:min(34rem,94vw);margin:24px 0}
.eyebrow{margin:0;color:var(--muted);font-size:12px;letter-spacing:.06em;text-transform:uppercase}
h1{font-size:20px;margin:4px 0 14px}h2{font-size:14px;margin:18px 0 6px}
label{display:block;font-weight:500;margin:12px 0 4px}
input{width:100%;font:inherit;padding:7px 10px;border:1px solid var(--line);border-radius:6px;background:transparent;color:inherit}
button{font:inherit;padding:7px 16px;border-radius:6px;border:1px solid var(--line);background:transparent;color:inherit;cursor:pointer}
button.primary{background:var(--accent);border-color:var(--accent);color:#fff}
.actions{display:flex;gap:10px;justify-content:flex-end;margin-top:20px}
.error{color:var(--bad);border-left:3px solid var(--bad);padding:4px 10px;margin:12px 0}
.muted{color:var(--muted);font-size:13px}code{font:13px ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;font-size:13px}td{padding:3px 6px;border-bottom:1px solid var(--line);vertical-align:top}
.pass{color:var(--ok)}.fail{color:var(--bad)}.skip{color:var(--muted)}mark{background:var(--bad);color:#fff;border-radius:2px}
pre{white-space:pre-wrap;word-break:break-all;font:13px ui-monospace,Menlo,Consolas,monospace;margin:4px 0}`;

/** A whole page in the login service's look. */
export function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${e(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

export interface SignInPage {
  integrationName: string;
  interactionId: string;
  csrf: string;
  username?: string;
  error?: string;
}

export function signInPage(page: SignInPage): string {
  return layout(
    'Sign in · Login service',
    `<p class="eyebrow">Login service</p>
<h1>Sign in</h1>
<p><strong>${e(page.integrationName)}</strong> asks to control your household.</p>
${page.error ? `<p class="error" role="alert">${e(page.error)}</p>` : ''}
<form method="post" action="${SIGN_IN_PATH}">
<input type="hidden" name="interaction" value="${e(page.interactionId)}"><input type="hidden" name="csrf" value="${e(page.csrf)}">
<label for="username">Username</label><input id="username" name="username" autocomplete="username" required autofocus value="${e(page.username ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button type="submit" class="primary">Sign in</button></div>
</form>
<p class="muted">This is the console's local login service: the demo user is <code>demo</code> / <code>demo</code>.</p>`,
  );
}

export interface ConsentPage {
  integrationName: string;
  description: string;
  category: string;
  username: string;
  householdName: string;
  redirectOrigin: string;
  interactionId: string;
  csrf: string;
}

export function consentPage(page: ConsentPage): string {
  return layout(
    `Allow ${page.integrationName}? · Login service`,
    `<p class="eyebrow">Login service</p>
<h1>Allow ${e(page.integrationName)} to control your household?</h1>
${page.description ? `<p>${e(page.description)}</p>` : ''}
${page.category ? `<p class="muted">Category: ${e(page.category)}</p>` : ''}
<h2>It will be able to</h2>
<p><code>${OAUTH_SCOPE}</code>: ${SCOPE_TEXT}.</p>
<p class="muted">Signed in as <strong>${e(page.username)}</strong> · ${e(page.householdName)}. You will be sent back to <code>${e(page.redirectOrigin)}</code>.</p>
<form method="post" action="${CONSENT_PATH}">
<input type="hidden" name="interaction" value="${e(page.interactionId)}"><input type="hidden" name="csrf" value="${e(page.csrf)}">
<div class="actions"><button type="submit" name="decision" value="allow" class="primary">Allow</button><button type="submit" name="decision" value="deny">Deny</button></div>
</form>`,
  );
}

export interface ErrorPage {
  title: string;
  message: string;
  checks?: FlowCheck[];
  comparison?: RedirectComparison;
}

export function errorPage(page: ErrorPage): string {
  return layout(
    `${page.title} · Login service`,
    `<p class="eyebrow">Login service · error</p>
<h1>${e(page.title)}</h1>
<p class="error" role="alert">${e(page.message)}</p>
<p class="muted">The login service answers here instead of redirecting, because the client or its redirect URL could not be trusted (RFC 6749 §4.1.2.1).</p>
${page.comparison ? comparisonHtml(page.comparison) : ''}
${page.checks ? checklistHtml(page.checks) : ''}`,
  );
}

function checklistHtml(checks: FlowCheck[]): string {
  const rows = checks
    .map((c) => {
      const [mark, cls] = c.ok === true ? ['✓', 'pass'] : c.ok === false ? ['✗', 'fail'] : ['·', 'skip'];
      return `<tr><td class="${cls}">${mark}</td><td>${e(c.label)}${c.detail ? `<br><span class="muted">${e(c.detail)}</span>` : ''}</td></tr>`;
    })
    .join('');
  return `<h2>What was checked</h2><table>${rows}</table>`;
}

function comparisonHtml(comparison: RedirectComparison): string {
  if (comparison.closest === null) return '';
  const at = comparison.firstDifference ?? comparison.presented.length;
  const marked = (value: string) => `${e(value.slice(0, at))}<mark>${e(value.slice(at)) || '&nbsp;'}</mark>`;
  return `<h2>redirect_uri, character by character</h2>
<pre>presented  ${marked(comparison.presented)}
registered ${marked(comparison.closest)}</pre>
${comparison.firstDifference !== null ? `<p class="muted">They differ from character ${comparison.firstDifference + 1} on.</p>` : ''}
${comparison.hints.map((h) => `<p class="muted">• ${e(h)}</p>`).join('')}`;
}

/** Security headers of every login page: no framing (clickjacking on consent), no caching, no referrer. */
export function pageHeaders(formTargets: readonly string[] = []): Record<string, string> {
  const formAction = ["'self'", ...formTargets].join(' ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
    pragma: 'no-cache',
    'referrer-policy': 'no-referrer',
  };
}
