/**
 * A fastify instance configured the same way for all four listeners. Apps are built without
 * listening (tests use `inject`), and the engine starts them with `listen`.
 */
import Fastify, { type FastifyInstance } from 'fastify';

/** Bodies the platform services accept; the admin API takes more (whole queues). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface ServiceAppOptions {
  /** Largest request body in bytes. Default DEFAULT_BODY_LIMIT. */
  bodyLimit?: number;
  /** Treat `//` in a path as `/` (players that join a base URL ending in `/` with `/context`). */
  ignoreDuplicateSlashes?: boolean;
}

export function createServiceApp(options: ServiceAppOptions = {}): FastifyInstance {
  return Fastify({
    logger: false,
    // Closing the engine must not wait for keep-alive sockets or open event streams.
    forceCloseConnections: true,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    routerOptions: { ignoreDuplicateSlashes: options.ignoreDuplicateSlashes ?? false },
    // Our own error bodies are shaped per service; fastify's default is fine for the rest.
    return503OnClosing: true,
  });
}
