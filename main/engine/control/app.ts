/**
 * The control API listener (CONTRACT §3, port P+2). Every call under /api/v1 needs a live access
 * token of the login service.
 */
import type { FastifyInstance } from 'fastify';
import { createServiceApp } from '../http/service-app.js';
import type { HouseholdViews } from '../household/views.js';
import { bearerToken, requireAccess, type AccessTokenVerifier, type BearerCallObserver } from './access.js';

export interface ControlAppOptions {
  verifyAccessToken: AccessTokenVerifier;
  /** Told of every call made with a bearer token (the OAuth flow inspector). */
  observeBearerCall?: BearerCallObserver;
  views: HouseholdViews;
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
      api.get('/households', async (request) => ({
        households: options.views.households().filter((h) => h.id === request.access?.householdId),
      }));
    },
    { prefix: '/api/v1' },
  );
  return app;
}
