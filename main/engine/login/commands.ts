/** Command handlers of the login service (rows in `api/commands/oauth.ts`). */
import { EngineError } from '../api/errors.js';
import type { CommandHandlers } from '../api/runner.js';
import type { EventBus } from '../events/bus.js';
import type { ConsoleFlows } from './console/console-flows.js';
import type { RedirectCapture } from './console/redirect-capture.js';
import type { Issuer } from './grants/issuer.js';
import type { FlowRecorder } from './inspector/flow-recorder.js';
import type { IntegrationManager } from './integrations/integrations.js';
import type { LoginSettingsStore } from './settings.js';

export type OAuthCommandName =
  | 'integrations.list'
  | 'integrations.create'
  | 'integrations.get'
  | 'integrations.update'
  | 'integrations.delete'
  | 'integrations.keys.create'
  | 'integrations.keys.update'
  | 'integrations.keys.regenerateSecret'
  | 'integrations.keys.delete'
  | 'integrations.redirectUris.add'
  | 'integrations.redirectUris.remove'
  | 'integrations.grants'
  | 'grants.revoke'
  | 'tokens.revoke'
  | 'tokens.expire'
  | 'settings.get'
  | 'settings.update'
  | 'oauth.flows.list'
  | 'oauth.flows.get'
  | 'oauth.flows.start'
  | 'oauth.sample.start'
  | 'oauth.revealCode'
  | 'oauth.window.navigated';

export interface OAuthCommandDeps {
  manager: IntegrationManager;
  settings: LoginSettingsStore;
  issuer: Issuer;
  recorder: FlowRecorder;
  flows: ConsoleFlows;
  capture: RedirectCapture;
  bus: Pick<EventBus, 'emit'>;
}

export function oauthCommands(deps: OAuthCommandDeps): Pick<CommandHandlers, OAuthCommandName> {
  const { manager, settings, issuer, recorder, flows, capture, bus } = deps;
  return {
    // The sample is the console's own (docs/contract/console.md §1's fresh data dir has no integration): listed on request.
    'integrations.list': ({ includeSample }) =>
      manager.list().filter((integration) => includeSample === true || !integration.sample),
    'integrations.create': (input) => manager.create(input),
    'integrations.get': ({ id }) => manager.get(id),
    'integrations.update': ({ id, ...changes }) => manager.update(id, changes),
    'integrations.delete': ({ id }) => manager.delete(id),
    'integrations.keys.create': ({ id, name, redirectUris, eventCallbackUrl }) =>
      manager.createKey(id, {
        ...(name !== undefined ? { name } : {}),
        ...(redirectUris ? { redirectUris } : {}),
        ...(eventCallbackUrl !== undefined ? { eventCallbackUrl } : {}),
      }),
    'integrations.keys.update': ({ id, keyId, eventCallbackUrl }) =>
      manager.updateKey(id, keyId, eventCallbackUrl !== undefined ? { eventCallbackUrl } : {}),
    'integrations.keys.regenerateSecret': ({ id, keyId }) => manager.regenerateSecret(id, keyId),
    'integrations.keys.delete': ({ id, keyId }) => manager.deleteKey(id, keyId),
    'integrations.redirectUris.add': ({ id, keyId, uri }) => manager.addRedirectUri(id, keyId, uri),
    'integrations.redirectUris.remove': ({ id, keyId, redirectUriId }) =>
      manager.removeRedirectUri(id, keyId, redirectUriId),
    'integrations.grants': ({ id }) => {
      manager.get(id);
      return issuer.grantsOf(id);
    },
    'grants.revoke': ({ id }) => issuer.revokeGrantFromConsole(id),
    'tokens.revoke': ({ id }) => issuer.revokeToken(id),
    'tokens.expire': ({ id }) => issuer.expireToken(id),
    'settings.get': () => settings.get(),
    'settings.update': (changes) => {
      const updated = settings.update(changes);
      bus.emit('oauth.changed', { what: 'settings' });
      return updated;
    },
    'oauth.flows.list': ({ limit }) => recorder.list(limit),
    'oauth.flows.get': ({ id }) => {
      const flow = recorder.get(id);
      if (!flow) throw new EngineError('not_found', `no flow ${id}`);
      const capturedCode = capture.view(id);
      return capturedCode ? { ...flow, capturedCode } : flow;
    },
    'oauth.flows.start': (input) => flows.start(input),
    'oauth.sample.start': ({ openInHostWindow }) => flows.startSample(openInHostWindow ?? false),
    'oauth.revealCode': ({ flowId }) => {
      if (!recorder.exists(flowId)) throw new EngineError('not_found', `no flow ${flowId}`);
      return capture.reveal(flowId);
    },
    'oauth.window.navigated': (input) => flows.navigated(input),
  };
}
