/**
 * A fastify instance configured the same way for all four listeners. Apps are built without
 * listening (tests use `inject`), and the engine starts them with `listen`.
 *
 * Every app gets its request hooks at birth, before any plugin: they call whatever instrument
 * the engine sets later (traffic capture, fault injection). Hooks added after a plugin with hooks
 * of its own was registered would not reach that plugin's routes.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';

export interface ServiceInstrument {
  onRequest(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
  /** Sees the raw request body stream before it is parsed; returns the stream to parse. */
  preParsing(request: FastifyRequest, payload: Readable): Readable;
  onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): void;
  onResponse(request: FastifyRequest, reply: FastifyReply): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    instrument: { current: ServiceInstrument | null };
  }
}

/** Bodies the platform services accept; the admin API takes more (whole queues). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface ServiceAppOptions {
  /** Largest request body in bytes. Default DEFAULT_BODY_LIMIT. */
  bodyLimit?: number;
  /** Treat `//` in a path as `/` (players that join a base URL ending in `/` with `/context`). */
  ignoreDuplicateSlashes?: boolean;
  /** Answers a request fastify refuses before routing it (a 4xx) in the service's error shape. */
  badRequest?: (reply: FastifyReply, status: number, message: string) => FastifyReply;
}

export function createServiceApp(options: ServiceAppOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: false,
    // Closing the engine must not wait for keep-alive sockets or open event streams.
    forceCloseConnections: true,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    routerOptions: { ignoreDuplicateSlashes: options.ignoreDuplicateSlashes ?? false },
    return503OnClosing: true,
    // A request fastify refuses before routing it (a bad percent-escape: 400; a path parameter too
    // long: 414): in the service's own error shape when it has one (CONTRACT §3, §4).
    ...(options.badRequest
      ? { frameworkErrors: (error: Error & { statusCode?: number }, _request: unknown, reply: FastifyReply) => options.badRequest!(reply, error.statusCode ?? 400, error.message) }
      : {}),
  });
  acceptEmptyJson(app);
  const slot: { current: ServiceInstrument | null } = { current: null };
  app.decorate('instrument', slot);
  app.addHook('onRequest', async (request, reply) => slot.current?.onRequest(request, reply));
  app.addHook('preParsing', async (request, _reply, payload) => slot.current?.preParsing(request, payload) ?? payload);
  app.addHook('onSend', async (request, reply, payload) => {
    slot.current?.onSend(request, reply, payload);
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => slot.current?.onResponse(request, reply));
  return app;
}

/**
 * An empty body sent as `application/json` is no body, not a malformed one: many HTTP clients
 * set the header on every call, commands without parameters included (`…/playback:1/play`).
 * Anything else goes to fastify's own parser (prototype-poisoning checks and all).
 */
function acceptEmptyJson(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    parseJson(request, body as string, done);
  });
}
