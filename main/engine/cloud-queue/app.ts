/**
 * The reference cloud queue server listener (CONTRACT §4, port P+3).
 */
import type { FastifyInstance } from 'fastify';
import { createServiceApp } from '../http/service-app.js';
import { cloudQueueError } from './errors.js';

export async function buildCloudQueueApp(): Promise<FastifyInstance> {
  const app = createServiceApp();
  app.setNotFoundHandler(async (request, reply) =>
    reply.code(404).send(cloudQueueError(404, 'notFound', `no cloud queue at ${request.url}`)),
  );
  return app;
}
