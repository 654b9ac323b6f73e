/**
 * The control API listener (docs/contract/console.md §3, port P+2). Every call needs a live access
 * token of the login service; routes act on the simulated players of the caller's household. The
 * whole API answers under `/api/v1` and, as the real service's does, under `/control/api/v1`, so a
 * client in which only the host can be set works unchanged.
 */
import type { FastifyInstance } from 'fastify';
import { createServiceApp, type RequestErrorAnswer } from '../http/service-app.js';
import { PlaybackError } from '../player/errors.js';
import { bearerToken, requireAccess, type AccessTokenVerifier, type BearerCallObserver } from './access.js';
import { sendControlError } from './errors.js';
import type { ControlDeps } from './routes/context.js';
import { householdRoutes } from './routes/households.js';
import { playbackRoutes } from './routes/playback.js';
import { sessionRoutes } from './routes/sessions.js';
import { subscriptionRoutes } from './routes/subscriptions.js';

/** Where the API answers: ours, and the real service's base path. */
export const CONTROL_PREFIXES = ['/api/v1', '/control/api/v1'] as const;

export interface ControlAppOptions extends ControlDeps {
  verifyAccessToken: AccessTokenVerifier;
  /** Told of every call made with a bearer token (the OAuth flow inspector). */
  observeBearerCall?: BearerCallObserver;
}

export async function buildControlApp(options: ControlAppOptions): Promise<FastifyInstance> {
  // A path the API does not have is ERROR_UNSUPPORTED_COMMAND with or without a body (§3).
  const invalid: RequestErrorAnswer = (reply, status, message, part) =>
    sendControlError(
      reply,
      new PlaybackError(part === 'missing' ? 'ERROR_UNSUPPORTED_COMMAND' : 'ERROR_INVALID_PARAMETER', message),
      status,
    );
  const app = createServiceApp({
    requestErrors: invalid,
    clientErrors: (_status, reason) => ({
      type: 'application/json; charset=utf-8',
      body: JSON.stringify({ errorCode: 'ERROR_INVALID_PARAMETER', reason }),
    }),
  });
  app.decorateRequest('access', null);
  // Every call needs the token, checked before anything else is read, a call the API does not
  // have included (it then gets 404).
  app.addHook('onRequest', requireAccess(options.verifyAccessToken));
  const observe = options.observeBearerCall;
  if (observe) {
    app.addHook('onResponse', async (request, reply) => {
      const token = bearerToken(request.headers.authorization);
      if (token) observe(token, { method: request.method, path: request.url, status: reply.statusCode });
    });
  }
  // A call the API does not have is not an id that does not exist: a client reads
  // ERROR_INVALID_OBJECT_ID as "the group (or session) is gone" (docs/contract/console.md §3).
  app.setNotFoundHandler((request, reply) =>
    sendControlError(
      reply,
      new PlaybackError(
        'ERROR_UNSUPPORTED_COMMAND',
        `the control API has no ${request.method} ${request.url.split('?')[0]}`,
      ),
    ),
  );
  const routes = async (api: FastifyInstance) => {
    householdRoutes(api, options);
    sessionRoutes(api, options);
    playbackRoutes(api, options);
    subscriptionRoutes(api, options);
  };
  for (const prefix of CONTROL_PREFIXES) await app.register(routes, { prefix });
  return app;
}
