/**
 * The login service, built from its parts for `createEngine`: the fastify app of the login
 * listener, the control API's bearer check and call observer, the command handlers, and the
 * sample integration's callback route on the console listener.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceUrls } from '../api/types.js';
import type { EngineClock } from '../clock/clock.js';
import type { AccessTokenVerifier, BearerCallObserver } from '../control/access.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/store.js';
import { buildLoginApp } from './app.js';
import { AuthorizationEndpoint } from './authorization-endpoint.js';
import { oauthCommands } from './commands.js';
import { ConsoleFlows, type OpenOAuthWindow } from './console-flows.js';
import { accessTokenVerifier, bearerCallObserver } from './control-access.js';
import { FlowRecorder } from './flow-recorder.js';
import { FlowStarts } from './flow-starts.js';
import { IntegrationManager } from './integrations.js';
import { Interactions } from './interactions.js';
import { Issuer } from './issuer.js';
import { SampleIntegration, sampleCallbackRoutes } from './sample.js';
import { LoginSettingsStore } from './settings.js';
import { TokenEndpoint } from './token-endpoint.js';

export interface LoginServiceOptions {
  store: Store;
  clock: EngineClock;
  bus: EventBus;
  urls: () => ServiceUrls;
  openOAuthWindow?: OpenOAuthWindow;
  /** An injected failure on the authorization endpoint (failure injection), or null. */
  injectedAuthorizeStatus?: () => number | null;
}

export interface LoginService {
  buildApp(): Promise<FastifyInstance>;
  /** Registers the sample integration's callback on the console listener (before it listens). */
  registerConsoleRoutes(app: FastifyInstance): Promise<void>;
  /** Once the listeners listen: the sample integration follows the console's URL. */
  onListening(): void;
  verifyAccessToken: AccessTokenVerifier;
  observeBearerCall: BearerCallObserver;
  commands: ReturnType<typeof oauthCommands>;
}

export function createLoginService(options: LoginServiceOptions): LoginService {
  const { store, clock, bus, urls } = options;
  const settings = new LoginSettingsStore(store.settings);
  const recorder = new FlowRecorder(store, clock, bus);
  const manager = new IntegrationManager(store, clock, settings, bus);
  const issuer = new Issuer(store, clock, recorder, bus);
  const starts = new FlowStarts();
  const sample = new SampleIntegration({ manager, recorder, starts, urls });
  const flows = new ConsoleFlows({ manager, recorder, starts, sample, urls, ...(options.openOAuthWindow ? { openOAuthWindow: options.openOAuthWindow } : {}) });
  const authorization = new AuthorizationEndpoint({
    store,
    manager,
    settings,
    issuer,
    recorder,
    interactions: new Interactions(clock),
    starts,
    ...(options.injectedAuthorizeStatus ? { injectedStatus: options.injectedAuthorizeStatus } : {}),
  });
  const token = new TokenEndpoint(store, manager, issuer, recorder);
  return {
    buildApp: () => buildLoginApp({ authorization, token }),
    registerConsoleRoutes: async (app) => {
      await app.register(sampleCallbackRoutes, { sample });
    },
    onListening: () => void sample.ensure(),
    verifyAccessToken: accessTokenVerifier(issuer),
    observeBearerCall: bearerCallObserver(issuer, recorder),
    commands: oauthCommands({ manager, settings, issuer, recorder, flows, bus }),
  };
}
