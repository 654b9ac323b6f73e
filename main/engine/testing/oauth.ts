/**
 * OAuth helpers for engine tests: register an integration through the admin API, play the
 * browser through the login and consent pages (cookies and forms, redirects not followed), and
 * call the token endpoint as a server-side client would.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CreatedIntegration } from '../api/oauth-types.js';
import type { Engine } from '../index.js';
import { basicHeader } from '../login/client-auth/basic-auth.js';
import { admin } from './http.js';

export const LOOPBACK_REDIRECT = 'http://127.0.0.1:9/callback';

export async function createTestIntegration(
  engine: Engine,
  body: Record<string, unknown> = {},
): Promise<CreatedIntegration> {
  const { status, body: created } = await admin(engine, 'POST', '/integrations', {
    name: 'Test app',
    redirectUris: [LOOPBACK_REDIRECT],
    ...body,
  });
  if (status !== 200) throw new Error(`creating an integration answered ${status}: ${JSON.stringify(created)}`);
  return created as CreatedIntegration;
}

export function authorizeUrl(engine: Engine, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.append(key, value);
  return `${engine.urls.login}/login/v3/oauth?${query}`;
}

/** The seed's authorization request for `client`, with overrides (undefined drops a parameter). */
export function authorizeParams(
  client: { clientId: string | null },
  overrides: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    client_id: client.clientId ?? '',
    response_type: 'code',
    state: 'state-123',
    scope: 'playback-control-all',
    redirect_uri: LOOPBACK_REDIRECT,
    ...overrides,
  };
}

export interface PageResponse {
  status: number;
  location: string | null;
  headers: Headers;
  html: string;
}

/** A browser without JavaScript: keeps cookies, submits forms, never follows redirects by itself. */
export class FormBrowser {
  private readonly cookies = new Map<string, string>();

  async get(url: string): Promise<PageResponse> {
    return this.request(url, { method: 'GET' });
  }

  async post(url: string, form: Record<string, string>): Promise<PageResponse> {
    return this.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
  }

  /** Submits the page's form with its hidden fields plus `fields` (a button is one more field). */
  async submit(page: PageResponse, base: string, fields: Record<string, string>): Promise<PageResponse> {
    const action = /<form[^>]*action="([^"]+)"/.exec(page.html)?.[1];
    if (!action) throw new Error(`no form on the page:\n${page.html}`);
    return this.post(new URL(decode(action), base).toString(), { ...hiddenFields(page.html), ...fields });
  }

  forgetCookies(): void {
    this.cookies.clear();
  }

  private async request(url: string, init: RequestInit): Promise<PageResponse> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: response.status,
      location: response.headers.get('location'),
      headers: response.headers,
      html: await response.text(),
    };
  }
}

export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[match[1]!] = decode(match[2]!);
  return fields;
}

function decode(value: string): string {
  return value
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/** Signs in as demo/demo and presses Allow (or Deny); resolves with the final redirect. */
export async function signInAndDecide(
  engine: Engine,
  url: string,
  decision: 'allow' | 'deny' = 'allow',
  browser = new FormBrowser(),
): Promise<PageResponse> {
  const signIn = await browser.get(url);
  if (signIn.status !== 200) throw new Error(`the authorize URL answered ${signIn.status} ${signIn.location ?? ''}`);
  const afterSignIn = await browser.submit(signIn, engine.urls.login, { username: 'demo', password: 'demo' });
  if (afterSignIn.status !== 303 || !afterSignIn.location) throw new Error(`sign-in answered ${afterSignIn.status}`);
  const consent = await browser.get(new URL(afterSignIn.location, engine.urls.login).toString());
  return browser.submit(consent, engine.urls.login, { decision });
}

/** A code for `client` through auto-approve (no pages). */
export async function codeFor(
  engine: Engine,
  client: { clientId: string | null },
  overrides: Record<string, string | undefined> = {},
): Promise<string> {
  await admin(engine, 'PATCH', '/settings', { autoApprove: true });
  const response = await fetch(authorizeUrl(engine, authorizeParams(client, overrides)), { redirect: 'manual' });
  const location = response.headers.get('location');
  const code = location ? new URL(location).searchParams.get('code') : null;
  if (!code) throw new Error(`no code: ${response.status} ${location}`);
  return code;
}

export interface TokenResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** POST /login/v3/oauth/access as the seed shows it (Basic auth, form body). */
export async function tokenRequest(
  engine: Engine,
  client: { clientId: string | null; clientSecret: string },
  form: Record<string, string>,
  init: { authorization?: string | null; contentType?: string; body?: string } = {},
): Promise<TokenResponse> {
  const headers: Record<string, string> = {
    'content-type': init.contentType ?? 'application/x-www-form-urlencoded;charset=utf-8',
  };
  const authorization =
    init.authorization === undefined ? basicHeader(client.clientId ?? '', client.clientSecret) : init.authorization;
  if (authorization !== null) headers.authorization = authorization;
  const response = await fetch(`${engine.urls.login}/login/v3/oauth/access`, {
    method: 'POST',
    headers,
    body: init.body ?? new URLSearchParams(form).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** Everything a PKCE code grant and one refresh hand a client: what the data safety tests look for on disk. */
export interface GrantSecrets {
  client: CreatedIntegration;
  code: string;
  verifier: string;
  issued: TokenResponse;
  refreshed: TokenResponse;
}

/** A new integration's code grant with PKCE (S256), then one refresh; both must answer 200. */
export async function pkceGrantAndRefresh(
  engine: Engine,
  verifier = randomBytes(32).toString('base64url'),
): Promise<GrantSecrets> {
  const client = await createTestIntegration(engine);
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const code = await codeFor(engine, client, { code_challenge: challenge, code_challenge_method: 'S256' });
  const issued = await tokenRequest(engine, client, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: LOOPBACK_REDIRECT,
    code_verifier: verifier,
  });
  if (issued.status !== 200)
    throw new Error(`the code exchange answered ${issued.status}: ${JSON.stringify(issued.body)}`);
  const refreshed = await tokenRequest(engine, client, {
    grant_type: 'refresh_token',
    refresh_token: String(issued.body.refresh_token),
  });
  if (refreshed.status !== 200)
    throw new Error(`the refresh answered ${refreshed.status}: ${JSON.stringify(refreshed.body)}`);
  return { client, code, verifier, issued, refreshed };
}

/** The grant's secret values by name, as a data safety test looks for them. */
export function grantSecretValues({ client, code, verifier, issued, refreshed }: GrantSecrets): Record<string, string> {
  return {
    clientSecret: client.clientSecret,
    code,
    verifier,
    accessToken: String(issued.body.access_token),
    refreshToken: String(issued.body.refresh_token),
    refreshedAccess: String(refreshed.body.access_token),
    refreshedRefresh: String(refreshed.body.refresh_token),
  };
}
