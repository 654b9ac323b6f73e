/**
 * A fastify instance configured the same way for all four listeners. Apps are built without
 * listening (tests use `inject`), and the engine starts them with `listen`.
 *
 * Every app gets its request hooks at birth, before any plugin: they call whatever instrument
 * the engine sets later (traffic capture, fault injection). Hooks added after a plugin with hooks
 * of its own was registered would not reach that plugin's routes.
 *
 * Every answer of every listener carries SECURITY_HEADERS (docs/contract/console.md §2, §9):
 * its responses are `SecureResponse`s.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { clientErrorAnswer, type ClientErrorBody } from './client-errors.js';
import { continueWhenRead, guardConnections, guardedServerOptions } from './connection-guard.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
import { lazyCompilers } from './lazy-compilers.js';
import { SecureResponse } from './secure-response.js';

export interface ServiceInstrument {
  /** Undefined when it had nothing to wait for (most requests): no promise, no turn lost. */
  onRequest(request: FastifyRequest, reply: FastifyReply): Promise<unknown> | undefined;
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

/**
 * The most wall time a request may take to arrive whole, headers and body (docs/contract/console.md
 * §9): a client that announces a body and sends a byte a second holds a connection, and a file
 * descriptor of the one process all four listeners share, for no longer than this. Fastify's
 * default is no limit at all. A loopback client sends the largest body the admin API takes
 * (256 MiB) in a second or two.
 */
export const REQUEST_ARRIVAL_TIMEOUT_MS = 30_000;

export interface ServiceAppOptions {
  /** Largest request body in bytes. Default DEFAULT_BODY_LIMIT. */
  bodyLimit?: number;
  /** Wall ms a request may take to arrive whole; default REQUEST_ARRIVAL_TIMEOUT_MS (tests shorten it). */
  requestTimeoutMs?: number;
  /** Wall ms a request's headers may take to arrive (connection-guard.ts; tests shorten it). */
  headersTimeoutMs?: number;
  /** Connections the listener holds at once (connection-guard.ts). */
  maxConnections?: number;
  /** Wall ms an idle kept-alive connection is kept (connection-guard.ts; tests shorten it). */
  keepAliveIdleMs?: number;
  /** Wall ms an answer may stand unread before its connection is cut (connection-guard.ts; tests shorten it). */
  sendStallMs?: number;
  /** Bytes of answers not yet taken the listener's connections may hold (connection-guard.ts; tests lower it). */
  pendingBudgetBytes?: number;
  /** Treat `//` in a path as `/` (players that join a base URL ending in `/` with `/context`). */
  ignoreDuplicateSlashes?: boolean;
  /**
   * Answers a request refused with a 4xx in the service's error shape, so a client parses one
   * shape: `path`, by fastify before routing (a bad percent-escape: 400; a path parameter too long:
   * 414); `routed`, once routed (its body malformed, too large, nested too deep or of a type not
   * taken, or any other 4xx a hook or route throws); `missing`, a path no route serves that came
   * with a body (404, refused before a byte of the body is read): the service's own 404 for a path
   * it does not have, not a complaint about a body.
   */
  requestErrors?: RequestErrorAnswer;
  /** Answers a route that failed (a 5xx) in the service's error shape; default: fastify's. */
  serverError?: (reply: FastifyReply) => FastifyReply;
  /** What the HTTP parser refuses before routing (431, 400, 408), in the service's shape (client-errors.ts). */
  clientErrors?: ClientErrorBody;
}

export type RequestErrorAnswer = (
  reply: FastifyReply,
  status: number,
  message: string,
  part: 'path' | 'routed' | 'missing',
) => FastifyReply;

/** Marks the refusal of a missing path's body, so that its answer is the service's 404. */
const MISSING_PATH = Symbol('missing path');

export function createServiceApp(options: ServiceAppOptions = {}): FastifyInstance {
  const timeoutMs = options.requestTimeoutMs ?? REQUEST_ARRIVAL_TIMEOUT_MS;
  const app = Fastify({
    logger: false,
    // Closing the engine must not wait for keep-alive sockets or open event streams.
    forceCloseConnections: true,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    routerOptions: { ignoreDuplicateSlashes: options.ignoreDuplicateSlashes ?? false },
    return503OnClosing: true,
    schemaController: { compilersFactory: lazyCompilers() },
    http: { ServerResponse: SecureResponse, ...guardedServerOptions(options) },
    clientErrorHandler: clientErrorAnswer(options.clientErrors),
    // In the service's own error shape when it has one (docs/contract/console.md §3, §4, §7).
    ...(options.requestErrors
      ? {
          frameworkErrors: (error: Error & { statusCode?: number }, _request: unknown, reply: FastifyReply) =>
            options.requestErrors!(reply, error.statusCode ?? 400, error.message, 'path'),
        }
      : {}),
  });
  guardConnections(app.server, options);
  answerErrors(app, options);
  acceptEmptyJson(app);
  const slot: { current: ServiceInstrument | null } = { current: null };
  app.decorate('instrument', slot);
  // Callback hooks, not async ones: they run on every request of every listener, and an async
  // hook costs a promise and a turn of the microtask queue even when there is no instrument.
  app.addHook('onRequest', (request, reply, done) => {
    bodyDeadline(request.raw, reply.raw, timeoutMs);
    const pending = slot.current?.onRequest(request, reply);
    if (pending === undefined) done();
    else pending.then(() => done(), done);
  });
  app.addHook('preParsing', (request, reply, payload, done) => {
    const tapped = slot.current ? slot.current.preParsing(request, payload) : payload;
    const refused = refusedBody(request, reply);
    if (!refused) continueWhenRead(request.raw, reply.raw, tapped);
    done(refused, tapped);
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    slot.current?.onSend(request, reply, payload);
    closeOverUnreadBody(request, reply);
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    slot.current?.onResponse(request, reply);
    done();
  });
  return app;
}

/**
 * A body must arrive whole within `timeoutMs`; else the request is answered 408 and its connection
 * closed. Node's own `requestTimeout` does not reach a body a handler is already reading (a drip of
 * a byte a second was held for minutes with it set), so each request with a body gets a timer of
 * its own, gone once the body has arrived or the connection is.
 */
function bodyDeadline(raw: IncomingMessage, answer: ServerResponse, timeoutMs: number): void {
  const declared = raw.headers['content-length'];
  if ((declared === undefined || declared === '0') && raw.headers['transfer-encoding'] === undefined) return;
  if (raw.complete) return;
  const timer = setTimeout(() => {
    const { socket } = raw;
    // A stand-in for a socket (fastify's inject, in tests) has no connection to cut: its timer went
    // off in a later test file of the same worker, as "socket.destroy is not a function".
    if (raw.complete || !socket || socket.destroyed || typeof socket.destroy !== 'function') return;
    // An answer already begun (sent before the body was read) cannot take a status line of ours.
    if (answer.headersSent) return void socket.destroy();
    socket.end('HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    socket.destroySoon();
  }, timeoutMs);
  timer.unref();
  // The connection's close too: a request answered before its body came (a form over its limit)
  // and cut off has neither `end` nor `close`, and its timer held the socket, request and answer
  // for the whole deadline. 2,400 such requests a second kept 70,000 of them, about 1 GB (outsider).
  const { socket } = raw;
  const clear = () => {
    clearTimeout(timer);
    raw.off('end', clear);
    raw.off('close', clear);
    socket?.off('close', clear);
  };
  raw.once('end', clear);
  raw.once('close', clear);
  socket?.once('close', clear);
}

function answerErrors(app: FastifyInstance, { requestErrors, serverError }: ServiceAppOptions): void {
  if (!requestErrors && !serverError) return;
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return requestErrors
        ? requestErrors(reply, status, error.message, MISSING_PATH in error ? 'missing' : 'routed')
        : reply.send(error);
    return serverError ? serverError(reply) : reply.send(error);
  });
}

/**
 * An empty body sent as `application/json` is no body, not a malformed one: many HTTP clients
 * set the header on every call, commands without parameters included (`…/playback:1/play`).
 * A body nested deeper than MAX_JSON_DEPTH is refused (400) before it is parsed. Anything else
 * goes to fastify's own parser (prototype-poisoning checks and all).
 */
function acceptEmptyJson(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    if (nestsDeeperThan(body as string))
      return done(
        Object.assign(new Error(`the JSON body nests arrays and objects more than ${MAX_JSON_DEPTH} deep`), {
          statusCode: 400,
        }),
        undefined,
      );
    parseJson(request, body as string, done);
  });
}

/**
 * A path no route serves reads no body (docs/contract/console.md §9): its 404 goes out before a
 * byte of it is read, and the connection closes so the rest is never read. Otherwise fastify's
 * not-found route would parse up to the listener's limit first: one request from any local process
 * could hold every listener while it did. Asked in the `preParsing` hook: the listener's own
 * checks (a token, the Host guard) still answer first, as they do for any request. Null: the body
 * may be read.
 */
function refusedBody(request: FastifyRequest, reply: FastifyReply): Error | null {
  if (!request.is404 || !carriesBody(request.raw)) return null;
  return refuseBodyOfMissingPath(request, reply);
}

/**
 * An answer that goes out before the request's body was read (a GET that takes none, a request
 * refused 401 or 400 before its body was looked at) closes the connection behind it (docs/contract/
 * console.md §9). Kept alive, Node would read and discard the rest of the body to reuse the
 * connection: 300 MB declared on a GET, or sent without a token to a route that takes 128 MB from
 * a signed-in client, were read to the end.
 */
function closeOverUnreadBody(request: FastifyRequest, reply: FastifyReply): void {
  if (!request.raw.complete && carriesBody(request.raw)) reply.header('connection', 'close');
}

/** The 404 of a path no route serves that came with a body, the connection closed behind it. */
export function refuseBodyOfMissingPath(request: FastifyRequest, reply: FastifyReply): Error {
  reply.header('connection', 'close');
  return Object.assign(
    new Error(
      `there is no ${request.method} ${request.url.split('?')[0]} here, and a path that does not exist takes no body`,
    ),
    { statusCode: 404, [MISSING_PATH]: true },
  );
}

export function carriesBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
