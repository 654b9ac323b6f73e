/**
 * A fastify instance configured the same way for all four listeners. Apps are built without
 * listening (tests use `inject`), and the engine starts them with `listen`.
 */
import Fastify, { type FastifyInstance } from 'fastify';

export function createServiceApp(): FastifyInstance {
  return Fastify({
    logger: false,
    // Closing the engine must not wait for keep-alive sockets or open event streams.
    forceCloseConnections: true,
    bodyLimit: 1024 * 1024,
    // Our own error bodies are shaped per service; fastify's default is fine for the rest.
    return503OnClosing: true,
  });
}
