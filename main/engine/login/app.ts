/**
 * The login service listener (seed §4.1, CONTRACT §2, port P+1).
 */
import type { FastifyInstance } from 'fastify';
import { createServiceApp } from '../http/service-app.js';

export async function buildLoginApp(): Promise<FastifyInstance> {
  const app = createServiceApp();
  app.get('/', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send('<!doctype html><title>Login service</title><h1>Login service</h1><p>OAuth 2.0: <code>/login/v3/oauth</code></p>'),
  );
  return app;
}
