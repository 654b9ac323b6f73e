/**
 * The control API listener (CONTRACT §3, port P+2). Every call under /api/v1 needs a live access
 * token of the login service; routes act on the simulated players of the caller's household.
 */
import type { FastifyInstance } from 'fastify';
import { createServiceApp } from '../http/service-app.js';
import { bearerToken, requireAccess, type AccessTokenVerifier, type BearerCallObserver } from './access.js';
import type { ControlDeps } from './routes/context.js';
import { householdRoutes } from './routes/households.js';
import { playbackRoutes } from './routes/playback.js';
import { sessionRoutes } from './routes/sessions.js';

export interface ControlAppOptions extends ControlDeps {
  verifyAccessToken: AccessTokenVerifier;
  /** Told of every call made with a bearer token (the OAuth flow inspector). */
  observeBearerCall?: BearerCallObserver;
}

export async function buildControlApp(options: ControlAppOptions): Promise<FastifyInstance> {
  const app = createServiceApp();
  app.decorateRequest('access', null);
  await app.register(
    async (api) => {
      api.addHook('onRequest', requireAccess(options.verifyAccessToken));
      const observe = options.observeBearerCall;
      if (observe) {
        api.addHook('onResponse', async (request, reply) => {
          const token = bearerToken(request.headers.authorization);
          if (token) observe(token, { method: request.method, path: request.url, status: reply.statusCode });
        });
      }
      householdRoutes(api, options);
      sessionRoutes(api, options);
      playbackRoutes(api, options);
    },
    { prefix: '/api/v1' },
  );
  return app;
}
