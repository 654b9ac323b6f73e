/**
 * The authorization request (docs/contract/platform.md §4.1, docs/contract/console.md §2), checked as one table of small steps in
 * order. Until the client and its redirect URI are certain, an error is a page (never a redirect:
 * that would send the browser to a URL nobody registered); after that, every error is a redirect
 * to the redirect URI (RFC 6749 §4.1.2.1). Each step leaves a line on the inspector's checklist.
 */
import { OAUTH_SCOPE, type FlowCheck, type OAuthErrorView, type RedirectComparison } from '../../api/oauth-types.js';
import { Checklist } from '../inspector/checklist.js';
import type { RegisteredClient } from '../integrations/integrations.js';
import { compareRedirectUri } from '../integrations/redirect-compare.js';
import { isLoopbackRedirectUri } from '../integrations/redirect-uri.js';
import {
  InvalidRequest,
  InvalidScope,
  ServerError,
  TemporarilyUnavailable,
  UnsupportedResponseType,
  type OAuthError,
} from '../oauth-error.js';
import type { Params } from '../params.js';
import { isWellFormedChallenge } from '../pkce.js';

export const AUTHORIZE_CHECKS = {
  client_id: 'client_id names a registered client key',
  redirect_uri: 'redirect_uri is present, once',
  redirect_uri_registered: 'redirect_uri matches a registered redirect URL exactly',
  redirect_uri_parity: 'redirect_uri would be accepted in production (production parity)',
  available: 'the login service is available (no injected failure)',
  single: 'no parameter is repeated',
  response_type: 'response_type is code',
  state: 'state is present',
  scope: `scope is ${OAUTH_SCOPE}`,
  pkce: 'PKCE (optional): code_challenge_method S256 with a well-formed code_challenge',
} as const;
type CheckId = keyof typeof AUTHORIZE_CHECKS;

export interface AuthorizationRequest {
  client: RegisteredClient;
  redirectUri: string;
  state: string;
  scope: string;
  codeChallenge: string | null;
}

export type AuthorizeOutcome =
  | {
      kind: 'error_page';
      checks: FlowCheck[];
      failed: string;
      client: RegisteredClient | null;
      comparison?: RedirectComparison;
    }
  | {
      kind: 'error_redirect';
      checks: FlowCheck[];
      client: RegisteredClient;
      redirectUri: string;
      state?: string;
      error: OAuthErrorView;
    }
  | { kind: 'ok'; checks: FlowCheck[]; request: AuthorizationRequest };

export interface AuthorizeContext {
  findClient(clientId: string): RegisteredClient | undefined;
  productionParity: boolean;
  /** An injected failure on this endpoint (docs/contract/console.md §2): 500 or 503, or null. */
  injectedStatus?: () => number | null;
}

export function checkAuthorizationRequest(params: Params, context: AuthorizeContext): AuthorizeOutcome {
  const checks = new Checklist(AUTHORIZE_CHECKS);
  const page = (
    id: CheckId,
    why: string,
    client: RegisteredClient | null,
    comparison?: RedirectComparison,
  ): AuthorizeOutcome => {
    checks.fail(id, why);
    return { kind: 'error_page', checks: checks.list(), failed: why, client, ...(comparison ? { comparison } : {}) };
  };

  // 1. Who is asking, and where may the answer go? Failing here is a page, never a redirect.
  if (params.isRepeated('client_id')) return page('client_id', 'client_id is repeated: it must be sent once', null);
  const clientId = params.single('client_id');
  if (clientId === undefined) return page('client_id', 'client_id is missing', null);
  const client = context.findClient(clientId);
  if (!client) return page('client_id', `client_id ${JSON.stringify(clientId)} is not a registered client key`, null);
  checks.pass('client_id', `${client.integration.name} (key "${client.key.name}")`);

  if (params.isRepeated('redirect_uri'))
    return page('redirect_uri', 'redirect_uri is repeated: it must be sent once', client);
  const redirectUri = params.single('redirect_uri');
  if (redirectUri === undefined) return page('redirect_uri', 'redirect_uri is missing', client);
  checks.pass('redirect_uri');
  if (!client.redirectUris.includes(redirectUri)) {
    const comparison = compareRedirectUri(redirectUri, client.redirectUris);
    const why =
      client.redirectUris.length === 0
        ? 'this key has no registered redirect URL'
        : `redirect_uri ${JSON.stringify(redirectUri)} is not registered for this key (the match is exact)`;
    return page('redirect_uri_registered', why, client, comparison);
  }
  checks.pass('redirect_uri_registered', redirectUri);
  if (isLoopbackRedirectUri(redirectUri)) {
    if (context.productionParity) {
      return page(
        'redirect_uri_parity',
        'production parity is on: production rejects loopback redirect URLs (not publicly routable)',
        client,
      );
    }
    checks.pass('redirect_uri_parity', 'loopback: accepted here, production would reject this');
  } else checks.pass('redirect_uri_parity');

  // 2. The rest is answered at the redirect URI.
  const state = params.single('state');
  const redirect = (id: CheckId, error: OAuthError): AuthorizeOutcome => {
    checks.fail(id, error.description);
    return {
      kind: 'error_redirect',
      checks: checks.list(),
      client,
      redirectUri,
      ...(state !== undefined ? { state } : {}),
      error: error.toView(),
    };
  };

  // An injected failure wins over the rest of the checks: a failing server never gets to them,
  // and the rule that counted the hit is the one the answer shows.
  const injected = context.injectedStatus?.() ?? null;
  if (injected === 503)
    return redirect(
      'available',
      new TemporarilyUnavailable('the login service is temporarily unavailable (injected 503)'),
    );
  if (injected !== null && injected >= 500)
    return redirect('available', new ServerError(`the login service failed (injected ${injected})`));
  checks.pass('available');

  const repeated = params.repeated();
  if (repeated.length > 0)
    return redirect('single', new InvalidRequest(`${repeated.join(', ')} repeated: each parameter must be sent once`));
  checks.pass('single');

  const responseType = params.single('response_type');
  if (responseType === undefined) return redirect('response_type', new InvalidRequest('response_type is missing'));
  if (responseType !== 'code') {
    return redirect(
      'response_type',
      new UnsupportedResponseType(`response_type ${JSON.stringify(responseType)} is not supported: use code`),
    );
  }
  checks.pass('response_type');

  if (state === undefined) return redirect('state', new InvalidRequest('state is missing'));
  checks.pass('state');

  const scope = params.single('scope');
  if (scope === undefined) return redirect('scope', new InvalidRequest('scope is missing'));
  const scopes = scope.split(' ').filter(Boolean);
  const unknown = scopes.filter((s) => s !== OAUTH_SCOPE);
  if (scopes.length === 0 || unknown.length > 0) {
    return redirect(
      'scope',
      new InvalidScope(`unknown scope ${JSON.stringify(unknown.join(' ') || scope)}: the only scope is ${OAUTH_SCOPE}`),
    );
  }
  checks.pass('scope');

  const challenge = params.single('code_challenge');
  const method = params.single('code_challenge_method');
  if (challenge === undefined && method === undefined) {
    checks.skip('pkce', 'no PKCE');
  } else {
    if (challenge === undefined)
      return redirect('pkce', new InvalidRequest('code_challenge_method without code_challenge'));
    if (method !== 'S256') {
      return redirect(
        'pkce',
        new InvalidRequest(
          `code_challenge_method must be S256 (got ${method === undefined ? 'none, which means plain' : JSON.stringify(method)}); plain is not supported`,
        ),
      );
    }
    if (!isWellFormedChallenge(challenge))
      return redirect('pkce', new InvalidRequest('code_challenge must be 43 base64url characters (S256)'));
    checks.pass('pkce', 'S256');
  }

  return {
    kind: 'ok',
    checks: checks.list(),
    request: { client, redirectUri, state, scope: OAUTH_SCOPE, codeChallenge: challenge ?? null },
  };
}
