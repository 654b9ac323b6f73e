/**
 * Commands of the login service (docs/contract/console.md §7): the integration manager, settings, grants and
 * tokens, the OAuth flow inspector, and starting flows (the sample integration's one click).
 */
import Type from 'typebox';
import { command } from '../command.js';
import { REFRESH_GRACE_MAX_SEC } from '../oauth-types.js';
import type {
  ClientKeyView,
  CreatedIntegration,
  FlowSummary,
  FlowView,
  GrantView,
  IntegrationView,
  IssuedClientSecret,
  LoginSettings,
  NavigationVerdict,
  RevealedCode,
  StartedFlow,
  TokenView,
} from '../oauth-types.js';
import { Empty, Id } from './shared.js';

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Description = Type.String({ maxLength: 1000 });
const Category = Type.String({ maxLength: 100 });
const Uri = Type.String({ maxLength: 2048 });
const RedirectUris = Type.Array(Uri, { maxItems: 20 });
/** Seconds a rotated refresh token still answers (docs/contract/console.md §2); 0: strict. */
const RefreshGraceSec = Type.Integer({ minimum: 0, maximum: REFRESH_GRACE_MAX_SEC });
const KeyRef = Type.Object({ id: Type.String({ minLength: 1 }), keyId: Type.String({ minLength: 1 }) });
/** A key's event callback URL (docs/contract/console.md §7 event callbacks); checked by the manager. */
const EventCallbackUrl = Type.String({ maxLength: 2048 });

export const oauthCommands = {
  'integrations.list': command<IntegrationView[]>()({
    summary:
      'Every integration you registered, with its keys and redirect URIs (never a secret); the console\u2019s own sample integration too with `includeSample`.',
    input: Type.Object({ includeSample: Type.Optional(Type.Boolean()) }),
    http: { method: 'GET', path: '/integrations' },
  }),
  'integrations.create': command<CreatedIntegration>()({
    summary: 'Registers an integration with its first key; the answer carries the client secret, shown this once.',
    input: Type.Object({
      name: Name,
      description: Type.Optional(Description),
      category: Type.Optional(Category),
      redirectUris: RedirectUris,
      keyName: Type.Optional(Name),
      rotateRefreshTokens: Type.Optional(Type.Boolean()),
      refreshGraceSec: Type.Optional(RefreshGraceSec),
      eventCallbackUrl: Type.Optional(EventCallbackUrl),
    }),
    http: { method: 'POST', path: '/integrations' },
  }),
  'integrations.get': command<IntegrationView>()({
    summary: 'One integration with its keys and redirect URIs.',
    input: Id,
    http: { method: 'GET', path: '/integrations/:id' },
  }),
  'integrations.update': command<IntegrationView>()({
    summary:
      'Edits name, description, category, refresh token rotation, or the refresh grace window (`refreshGraceSec`, 0 = strict).',
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      name: Type.Optional(Name),
      description: Type.Optional(Description),
      category: Type.Optional(Category),
      rotateRefreshTokens: Type.Optional(Type.Boolean()),
      refreshGraceSec: Type.Optional(RefreshGraceSec),
    }),
    http: { method: 'PATCH', path: '/integrations/:id' },
  }),
  'integrations.delete': command<{ id: string; deleted: true }>()({
    summary: 'Deletes an integration; every token issued to it stops working.',
    input: Id,
    http: { method: 'DELETE', path: '/integrations/:id' },
  }),
  'integrations.keys.create': command<IssuedClientSecret>()({
    summary: 'Adds a client key (named "Key N" when no name is given); the answer carries its secret, shown this once.',
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      name: Type.Optional(Name),
      redirectUris: Type.Optional(RedirectUris),
      eventCallbackUrl: Type.Optional(EventCallbackUrl),
    }),
    http: { method: 'POST', path: '/integrations/:id/keys' },
  }),
  'integrations.keys.update': command<ClientKeyView>()({
    summary:
      'Sets a key\u2019s event callback URL (http or https, loopback allowed), or removes it with null; its events are signed with the key\u2019s secret.',
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      keyId: Type.String({ minLength: 1 }),
      eventCallbackUrl: Type.Optional(Type.Union([EventCallbackUrl, Type.Null()])),
    }),
    http: { method: 'PATCH', path: '/integrations/:id/keys/:keyId' },
  }),
  'integrations.keys.regenerateSecret': command<IssuedClientSecret>()({
    summary: 'Gives a key a new secret (shown this once); the old one stops working at once.',
    input: KeyRef,
    http: { method: 'POST', path: '/integrations/:id/keys/:keyId/secret' },
  }),
  'integrations.keys.delete': command<IntegrationView>()({
    summary: 'Deletes a key with everything issued under it.',
    input: KeyRef,
    http: { method: 'DELETE', path: '/integrations/:id/keys/:keyId' },
  }),
  'integrations.redirectUris.add': command<ClientKeyView>()({
    summary: 'Registers a redirect URL for a key (HTTPS and publicly routable; loopback flagged).',
    input: Type.Object({ id: Type.String({ minLength: 1 }), keyId: Type.String({ minLength: 1 }), uri: Uri }),
    http: { method: 'POST', path: '/integrations/:id/keys/:keyId/redirect-uris' },
  }),
  'integrations.redirectUris.remove': command<ClientKeyView>()({
    summary: 'Removes a redirect URL from a key.',
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      keyId: Type.String({ minLength: 1 }),
      redirectUriId: Type.String({ minLength: 1 }),
    }),
    http: { method: 'DELETE', path: '/integrations/:id/keys/:keyId/redirect-uris/:redirectUriId' },
  }),
  'integrations.grants': command<GrantView[]>()({
    summary: "An integration's grants, newest first, with their code and tokens and expiry on the engine clock.",
    input: Id,
    http: { method: 'GET', path: '/integrations/:id/grants' },
  }),
  'grants.revoke': command<GrantView>()({
    summary: 'Revokes a grant and every token of it.',
    input: Id,
    http: { method: 'POST', path: '/grants/:id/revoke' },
  }),
  'tokens.revoke': command<TokenView>()({
    summary: 'Revokes one token.',
    input: Id,
    http: { method: 'POST', path: '/tokens/:id/revoke' },
  }),
  'tokens.expire': command<TokenView>()({
    summary: 'Makes a token expire now, on the engine clock.',
    input: Id,
    http: { method: 'POST', path: '/tokens/:id/expire' },
  }),
  'settings.get': command<LoginSettings>()({
    summary: 'The login service settings: auto-approve, production parity and redirect capture.',
    input: Empty,
    http: { method: 'GET', path: '/settings' },
  }),
  'settings.update': command<LoginSettings>()({
    summary:
      'Changes auto-approve (skip sign-in and consent), production parity (refuse loopback redirect URLs) and redirect capture (`captureRedirects`: keep redirects that would leave this machine, the code held for a one-time reveal).',
    input: Type.Object({
      autoApprove: Type.Optional(Type.Boolean()),
      productionParity: Type.Optional(Type.Boolean()),
      captureRedirects: Type.Optional(Type.Boolean()),
    }),
    http: { method: 'PATCH', path: '/settings' },
  }),
  'oauth.flows.list': command<FlowSummary[]>()({
    summary: 'The OAuth flow inspector: the newest flows first.',
    input: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })) }),
    http: { method: 'GET', path: '/oauth/flows' },
  }),
  'oauth.flows.get': command<FlowView>()({
    summary: 'One flow with every step of its timeline.',
    input: Id,
    http: { method: 'GET', path: '/oauth/flows/:id' },
  }),
  'oauth.flows.start': command<StartedFlow & { codeVerifier: string | null }>()({
    summary:
      "Starts a flow for an integration's key: the authorize URL (with a fresh state, and PKCE if asked), opened by the host when it can.",
    input: Type.Object({
      integrationId: Type.String({ minLength: 1 }),
      keyId: Type.Optional(Type.String({ minLength: 1 })),
      redirectUri: Type.Optional(Uri),
      pkce: Type.Optional(Type.Boolean()),
      openInHostWindow: Type.Optional(Type.Boolean()),
    }),
    http: { method: 'POST', path: '/oauth/flows' },
  }),
  'oauth.sample.start': command<StartedFlow>()({
    summary: "Runs the sample integration's flow: authorize → sign-in → consent → code → token → list households.",
    input: Type.Object({ openInHostWindow: Type.Optional(Type.Boolean()) }),
    http: { method: 'POST', path: '/oauth/sample' },
  }),
  'oauth.revealCode': command<RevealedCode>()({
    summary:
      'The code of a captured redirect, once, with the token request as a curl line that carries it; then refused, saying why (revealed already, expired, none held).',
    input: Type.Object({ flowId: Type.String({ minLength: 1 }) }),
    http: { method: 'POST', path: '/oauth/flows/:flowId/reveal-code' },
  }),
  'oauth.window.navigated': command<NavigationVerdict>()({
    summary: "The host's OAuth window reports a navigation; the answer says whether to stop at the redirect URI.",
    input: Type.Object({
      flowId: Type.String({ minLength: 1 }),
      url: Type.String({ maxLength: 8192 }),
      event: Type.Union([
        Type.Literal('navigate'),
        Type.Literal('redirect'),
        Type.Literal('load'),
        Type.Literal('fail'),
      ]),
    }),
  }),
};
