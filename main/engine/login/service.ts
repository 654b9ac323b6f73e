/**
 * `login/`: the OAuth 2.0 authorization server (docs/contract/platform.md §4, docs/contract/console.md §2),
 * one folder per job: `endpoints/` (the HTTP routes), `grants/` (one checklist per grant, and
 * what a grant issues), `client-auth/` (Basic client authentication), `integrations/`
 * (registration, keys, redirect URIs), `inspector/` (the flow inspector's record) and `console/`
 * (the console's own flows, redirect capture, who the command bar sends as). Beside them, what every job shares: `secrets.ts` (the one place
 * secrets are made, hashed and compared), `oauth-error.ts`, `params.ts`, `pkce.ts`, `paths.ts`,
 * `settings.ts`, `atomic.ts`, and the command handlers (`commands.ts`).
 *
 * This file builds the service from its parts for `createEngine`: the fastify app of the login
 * listener, the control API's bearer check and call observer, the command handlers, and the
 * sample integration's callback route on the console listener.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceUrls } from '../api/types.js';
import type { ControlSender } from '../api/commands/player.js';
import type { EngineClock } from '../clock/clock.js';
import type { AccessTokenVerifier, BearerCallObserver } from '../control/access.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/store.js';
import { oauthCommands } from './commands.js';
import { ConsoleFlows, type OpenOAuthWindow } from './console/console-flows.js';
import { ConsoleToken } from './console/console-token.js';
import { FlowStarts } from './console/flow-starts.js';
import { RedirectCapture } from './console/redirect-capture.js';
import { ControlSenders, type SenderToken } from './console/senders.js';
import { SampleIntegration, sampleCallbackRoutes } from './console/sample.js';
import { buildLoginApp } from './endpoints/app.js';
import { AuthorizationEndpoint } from './endpoints/authorization-endpoint.js';
import { Interactions } from './endpoints/interactions.js';
import { SignInThrottle } from './endpoints/sign-in-throttle.js';
import { PasswordChecker } from '../security/passwords.js';
import { TokenEndpoint } from './endpoints/token-endpoint.js';
import { accessTokenVerifier, bearerCallObserver } from './grants/control-access.js';
import { Issuer } from './grants/issuer.js';
import { FlowRecorder } from './inspector/flow-recorder.js';
import { IntegrationManager } from './integrations/integrations.js';
import { LoginSettingsStore } from './settings.js';
import type { KnownSecrets } from '../security/known-secrets.js';

export interface LoginServiceOptions {
  store: Store;
  clock: EngineClock;
  bus: EventBus;
  urls: () => ServiceUrls;
  openOAuthWindow?: OpenOAuthWindow;
  /** An injected failure for one authorization request (failure injection), or null. */
  injectedAuthorizeStatus?: (request: FastifyRequest) => number | null;
  /** The engine's secrets known by value (what it hands out without sending it is added here). */
  secrets?: KnownSecrets;
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
  /** The console's own access token (command bar, scenarios). */
  consoleAccessToken(): Promise<string>;
  /** The token a command bar call carries: the console's own, or (`as`) a grant's it saw issued (console/senders.ts). */
  controlToken(as?: { grantId: string }): Promise<SenderToken>;
  /** The grants the command bar can send as. */
  controlSenders(): ControlSender[];
}

export function createLoginService(options: LoginServiceOptions): LoginService {
  const { store, clock, bus, urls } = options;
  const settings = new LoginSettingsStore(store.settings);
  const recorder = new FlowRecorder(store, clock, bus, options.secrets);
  const manager = new IntegrationManager(store, clock, settings, bus, options.secrets);
  const issuer = new Issuer(store, clock, recorder, bus, options.secrets);
  const starts = new FlowStarts();
  const sample = new SampleIntegration({ manager, recorder, starts, urls });
  const capture = new RedirectCapture({
    urls,
    now: () => issuer.now(),
    enabled: () => settings.get().captureRedirects,
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
  const flows = new ConsoleFlows({
    manager,
    recorder,
    starts,
    sample,
    urls,
    capture,
    now: () => issuer.now(),
    ...(options.openOAuthWindow ? { openOAuthWindow: options.openOAuthWindow } : {}),
  });
  const authorization = new AuthorizationEndpoint({
    store,
    manager,
    settings,
    issuer,
    recorder,
    interactions: new Interactions(clock),
    throttle: new SignInThrottle(clock),
    passwords: new PasswordChecker(),
    starts,
    capture,
  });
  const token = new TokenEndpoint(store, manager, issuer, recorder);
  const consoleToken = new ConsoleToken({ sample, manager, issuer, recorder, users: store.users, urls });
  const senders = new ControlSenders({ issuer, consoleToken, store });
  return {
    buildApp: () =>
      buildLoginApp({
        authorization,
        token,
        capture,
        ...(options.injectedAuthorizeStatus ? { injectedStatus: options.injectedAuthorizeStatus } : {}),
      }),
    registerConsoleRoutes: async (app) => {
      await app.register(sampleCallbackRoutes, { sample });
    },
    onListening: () => void sample.ensure(),
    verifyAccessToken: accessTokenVerifier(issuer),
    observeBearerCall: bearerCallObserver(issuer, recorder),
    commands: oauthCommands({ manager, settings, issuer, recorder, flows, capture, bus }),
    consoleAccessToken: () => consoleToken.get(),
    controlToken: (as) => senders.token(as),
    controlSenders: () => senders.list(),
  };
}
