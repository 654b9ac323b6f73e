import { describe, expect, it } from 'vitest';
import type { Integration } from '../../store/repositories/integrations.js';
import type { ClientKey } from '../../store/repositories/client-keys.js';
import { checkAuthorizationRequest, type AuthorizeContext } from './authorize.js';
import type { RegisteredClient } from '../integrations/integrations.js';
import { Params } from '../params.js';

const client: RegisteredClient = {
  integration: {
    id: 'int_1',
    name: 'App',
    description: '',
    category: '',
    rotateRefreshTokens: true,
    refreshGraceSec: 30,
    sample: false,
    createdAt: 0,
    updatedAt: 0,
  } satisfies Integration,
  key: {
    id: 'key_1',
    integrationId: 'int_1',
    name: 'Default',
    clientId: 'client-1',
    secretHash: Buffer.alloc(32),
    secretHint: 'abc',
    createdAt: 0,
    secretSetAt: 0,
    eventCallbackUrl: null,
    eventSigningSecret: null,
  } satisfies ClientKey,
  redirectUris: ['https://app.example.com/cb', 'http://127.0.0.1:8080/cb'],
};
const context = (extra: Partial<AuthorizeContext> = {}): AuthorizeContext => ({
  findClient: (id) => (id === 'client-1' ? client : undefined),
  productionParity: false,
  ...extra,
});
const request = (query: Record<string, string>) =>
  Params.parse(
    new URLSearchParams({
      client_id: 'client-1',
      response_type: 'code',
      state: 's',
      scope: 'playback-control-all',
      redirect_uri: 'https://app.example.com/cb',
      ...query,
    }).toString(),
  );

describe('the authorization request checklist', () => {
  it('passes every check of a valid request and leaves PKCE as not used', () => {
    const outcome = checkAuthorizationRequest(request({}), context());
    expect(outcome.kind).toBe('ok');
    expect(outcome.checks.map((c) => [c.id, c.ok])).toEqual([
      ['client_id', true],
      ['redirect_uri', true],
      ['redirect_uri_registered', true],
      ['redirect_uri_parity', true],
      ['available', true],
      ['single', true],
      ['response_type', true],
      ['state', true],
      ['scope', true],
      ['pkce', null],
    ]);
  });

  it('marks the failed check and leaves later ones not reached', () => {
    const outcome = checkAuthorizationRequest(request({ response_type: 'token' }), context());
    expect(outcome.kind).toBe('error_redirect');
    const byId = Object.fromEntries(outcome.checks.map((c) => [c.id, c.ok]));
    expect(byId).toMatchObject({ single: true, response_type: false, state: null, scope: null });
  });

  it('flags a loopback redirect URI as one production would reject', () => {
    const outcome = checkAuthorizationRequest(request({ redirect_uri: 'http://127.0.0.1:8080/cb' }), context());
    expect(outcome.checks.find((c) => c.id === 'redirect_uri_parity')).toMatchObject({
      ok: true,
      detail: expect.stringContaining('production would reject this'),
    });
  });

  it.each([
    [503, 'temporarily_unavailable'],
    [500, 'server_error'],
  ])('turns an injected %s into a redirect with %s', (status, error) => {
    const outcome = checkAuthorizationRequest(request({}), context({ injectedStatus: () => status }));
    expect(outcome).toMatchObject({
      kind: 'error_redirect',
      redirectUri: 'https://app.example.com/cb',
      state: 's',
      error: { error },
    });
  });

  it('answers an injected failure before the checks a failing server never reaches (scope, response_type)', () => {
    const outcome = checkAuthorizationRequest(
      request({ scope: 'bad', response_type: 'token' }),
      context({ injectedStatus: () => 503 }),
    );
    expect(outcome).toMatchObject({ kind: 'error_redirect', state: 's', error: { error: 'temporarily_unavailable' } });
  });

  it('checks the client and redirect URI before anything is redirected', () => {
    const outcome = checkAuthorizationRequest(
      request({ redirect_uri: 'https://app.example.com/other', response_type: 'token' }),
      context({ injectedStatus: () => 503 }),
    );
    expect(outcome.kind).toBe('error_page');
  });
});
