/**
 * The player's requests over node:http with kept-alive connections. `fetch` works too (it is the
 * client's default), but it builds a Request, a Headers, a Response and a web stream for every
 * exchange, and a player reporting every few seconds of engine time makes thousands of them in
 * one jump of the clock: with node:http a loopback exchange costs about a quarter of fetch's
 * (docs/decisions/perf-playback-24h.md). What the client sees is the same: redirects followed as
 * fetch follows them, the body as a stream it reads under its own cap, connection failures with
 * their code as the `cause`, and the abort signal ending the request at any point.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import type { ByteStream } from '../http/capped-body.js';
import { decoderOf } from '../http/content-encoding.js';
import { OutboundRefused, type OutboundPolicy } from '../http/outbound-guard.js';
import type { HttpRequest, HttpResponse, HttpTransport } from './client.js';
import { UnfinishedHead } from './unfinished-head.js';
import { UnaskedUpgrade } from './unasked-upgrade.js';
import { UnfollowableRedirect } from './unfollowable-redirect.js';

/** What a reused connection the server had closed fails with before any answer. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);
/**
 * How soon after the request went out such a failure reads as the server's close racing it: the
 * close was on its way before the request arrived, so it comes back within a round trip. Later,
 * the server held the request and then dropped the connection, a failure to count, not to hide
 * (audit: a server that reset GETs after holding them 2 s was reported without an error).
 */
const STALE_WITHIN_MS = 1_000;

/** As fetch: at most 20 redirects, then the request fails. */
const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface KeepAliveTransport {
  transport: HttpTransport;
  /** Closes the kept-alive connections (the engine's close). */
  close(): void;
}

/**
 * How long a kept connection may sit idle before the pool closes it. Below the 5 s that Node's and
 * Apache's servers keep one: a connection the server closes just as a request goes out on it fails
 * that request (sent again only for a GET), so the pool lets go first. Given a timeout, Node's
 * pool also reads the server's `Keep-Alive: timeout=N` and lets go a second before N.
 */
export const IDLE_CONNECTION_MS = 4_000;

/**
 * Which requests a kept connection the server closed as they went out sends again: none (the
 * console's own players: a connection failure is §7.2's incomplete request, retried as the table
 * says and in the traffic log; sent again unseen, a server that dropped a request on purpose saw
 * five tries where the platform's player makes four, and a `drop` fault reached the player or not
 * by the connection's age: outsiders), a GET only (a fleet's players: a report sent twice is stored
 * twice; the fleet counts both tries), or any (a conformance run's probes, whose one try is the
 * case's verdict: a server behind a proxy that drops kept connections failed its report cases for
 * what a player's retry gets past, audit Y8).
 */
export type StaleResend = 'none' | 'get' | 'any';

/**
 * A transport with its own connection pools; each engine makes one and closes it. `outbound`, when
 * given, judges every redirect's target before it is followed: `run --allow-host A` let a player
 * follow A's redirect to a port nobody allowed (audit), since the guard around the transport sees
 * only the first URL.
 */
export function keepAliveTransport(
  idleMs = IDLE_CONNECTION_MS,
  outbound?: OutboundPolicy,
  resend: StaleResend = 'get',
): KeepAliveTransport {
  // `timeout` is the idle time of a pooled connection: one in use only hears a 'timeout' event,
  // which nothing here listens to (a request's own deadline is the client's).
  const agents = {
    http: new HttpAgent({ keepAlive: true, timeout: idleMs }),
    https: new HttpsAgent({ keepAlive: true, timeout: idleMs }),
  };
  const send = async (request: HttpRequest): Promise<HttpResponse> => {
    let current = request;
    for (let hops = 0; ; hops++) {
      const resendStale = resend === 'any' || (resend === 'get' && current.method === 'GET');
      const response = await requestOnce(current, agents, resendStale);
      const location = REDIRECTS.has(response.statusCode ?? 0) ? response.headers.location : undefined;
      if (location === undefined) return answer(response, hops > 0 ? current.url : undefined);
      response.resume();
      if (hops === MAX_REDIRECTS) throw new Error('request failed', { cause: new Error('redirect count exceeded') });
      const target = URL.canParse(location, current.url) ? new URL(location, current.url) : null;
      if (!target || (target.protocol !== 'http:' && target.protocol !== 'https:'))
        throw new Error('request failed', { cause: new UnfollowableRedirect(response.statusCode!, location) });
      const refused = outbound?.(target) ?? null;
      if (refused !== null)
        throw new OutboundRefused(`${new URL(current.url).origin} redirected to ${target.origin}: ${refused}`);
      current = redirected(current, response.statusCode!, target);
    }
  };
  return {
    transport: send,
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/**
 * One request, no redirect followed, answered with its response head; the body is left to read,
 * and the request's signal ends it too. Without `agents`, Node's own pools carry it (an event
 * delivery: event-delivery/transport.ts); with `false`, a connection of its own.
 */
export function requestOnce(
  request: HttpRequest,
  agents?: { http: HttpAgent; https: HttpsAgent } | false,
  resendStale = false,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const { signal } = request;
    if (signal.aborted) return reject(signal.reason as Error);
    const url = new URL(request.url);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:')
      return reject(new Error('request failed', { cause: new Error(`unsupported protocol ${url.protocol}`) }));
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    let outgoing;
    try {
      outgoing = (secure ? httpsRequest : httpRequest)(url, {
        method: request.method,
        headers,
        ...(agents === false ? { agent: false } : agents ? { agent: secure ? agents.https : agents.http } : {}),
      });
    } catch (error) {
      // A header value node refuses (a newline in httpAuthorization): no request left.
      return reject(new Error('request failed', { cause: error }));
    }
    let incoming: IncomingMessage | undefined;
    // Bytes of an answer whose head has not ended yet: given up then, the server did answer.
    let headBytes = 0;
    // When the request went out (its write is queued now): a stale connection's close comes back soon after.
    const sentAt = performance.now();
    const countHead = (chunk: Buffer): void => void (headBytes += chunk.length);
    outgoing.once('socket', (socket) => {
      socket.on('data', countHead);
      outgoing.once('close', () => socket.off('data', countHead));
    });
    let abortedWith: Error | undefined;
    // As fetch: the signal ends the exchange at any point, its body too. The body's reader may
    // listen to a signal of its own only (a player's 10 s), not to one a caller added around the
    // transport (a conformance run's deadline), which would then go unheard until the body ended.
    const onAbort = (): void => {
      const reason = signal.reason as Error;
      abortedWith = !incoming && headBytes > 0 ? new UnfinishedHead(reason, headBytes) : reason;
      outgoing.destroy(abortedWith);
      incoming?.destroy(reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (incoming) return;
      signal.removeEventListener('abort', onAbort);
      // A kept-alive connection the server closed as a GET went out on it: sent again once on a
      // new connection, as browsers do (taken as a failure, a correct server that closes idle
      // connections had its players retry now and then: audit), and said (`resentAfter`), so that
      // a fleet counts the first try as the server saw it. A POST only where the caller says so
      // (`StaleResend`): a reset does not say the server never read the request. The new
      // connection is one of its own: another the pool kept may have been closed alike.
      if (
        resendStale &&
        !signal.aborted &&
        headBytes === 0 &&
        outgoing.reusedSocket &&
        STALE_CONNECTION.has(error.code ?? '') &&
        performance.now() - sentAt < STALE_WITHIN_MS
      ) {
        requestOnce(request, false, false).then((response) => {
          resentAfter.set(response, error.code!);
          resolve(response);
        }, reject);
        return;
      }
      reject(
        signal.aborted ? (abortedWith ?? (signal.reason as Error)) : new Error('request failed', { cause: error }),
      );
    });
    // An upgrade no request asked for: an answer, of a protocol no player speaks (UnaskedUpgrade).
    outgoing.on('upgrade', (response, socket) => {
      socket.destroy();
      signal.removeEventListener('abort', onAbort);
      const cause = new UnaskedUpgrade(response.statusCode ?? 101, response.headers.upgrade);
      reject(new Error('request failed', { cause }));
    });
    outgoing.on('response', (response) => {
      incoming = response;
      response.socket?.off('data', countHead);
      response.once('close', () => signal.removeEventListener('abort', onAbort));
      resolve(response);
    });
    outgoing.end(request.body);
  });
}

/** The first try's error code of a response got by sending a request again (see `requestOnce`). */
const resentAfter = new WeakMap<IncomingMessage, string>();

/** The request a redirect asks for, as fetch makes it (RFC 9110 §15.4, the Fetch standard). */
function redirected(request: HttpRequest, status: number, to: URL): HttpRequest {
  const toGet = status === 303 || ((status === 301 || status === 302) && request.method === 'POST');
  const headers = { ...request.headers };
  if (toGet) delete headers['content-type'];
  // Credentials stay with the origin they were given for.
  if (to.origin !== new URL(request.url).origin) delete headers.authorization;
  return {
    ...request,
    url: to.toString(),
    method: toGet ? 'GET' : request.method,
    headers,
    body: toGet ? undefined : request.body,
  };
}

function answer(response: IncomingMessage, redirectedTo: string | undefined): HttpResponse {
  const body = messageBody(hasContent(response) ? decoded(response) : response, response);
  const resent = resentAfter.get(response);
  return {
    ...(resent ? { resentAfter: resent } : {}),
    ...(redirectedTo ? { redirectedTo } : {}),
    status: response.statusCode ?? 0,
    headers: {
      get: (name) => {
        const value = response.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
      forEach: (each) => {
        for (const [name, value] of Object.entries(response.headers))
          if (value !== undefined) each(Array.isArray(value) ? value.join(', ') : value, name);
      },
    },
    body,
    text: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of body.stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/**
 * Whether the answer can carry content to decode: not a 204 or a 304 (RFC 9110 §6.4.1), nor one
 * that says it has none (the player sends no HEAD). A 204 with `Content-Encoding: gzip` and nothing
 * after its head was read as a gzip stream cut short, and failed a server's reports (audit).
 */
function hasContent(response: IncomingMessage): boolean {
  const status = response.statusCode ?? 0;
  return status !== 204 && status !== 304 && response.headers['content-length'] !== '0';
}

/**
 * As fetch: a compressed answer is read decompressed (the cap counts what the player reads). The
 * decoder starts with the first byte of the body: a body that ends before any byte came (chunked,
 * no `Content-Length` to say so beforehand) holds nothing to decode, and is read as empty, as curl
 * and browsers read it, not as a gzip stream cut short (review).
 */
function decoded(response: IncomingMessage): Readable {
  const encoding = response.headers['content-encoding']?.trim().toLowerCase() ?? '';
  const decoder = decoderOf(encoding);
  if (!decoder) return response;
  const body = new PassThrough();
  const nothing = (): void => void body.end();
  const failed = (error: Error): void => void body.destroy(error);
  response.once('end', nothing);
  response.once('error', failed);
  response.once('data', (first: Buffer) => {
    response.off('end', nothing);
    response.off('error', failed);
    const decoding = decoder();
    decoding.write(first);
    // One pipeline: an error or an early close anywhere ends all three, the answer's connection
    // with them. Piped, a decoder's error left the connection held until the request's signal,
    // and an answer cut off without 'end' left the body open (review).
    pipeline(response, decoding, body, () => undefined);
  });
  return body;
}

/**
 * The body as the byte stream readCappedBody reads: cancelling it drops the connection, and a read
 * pending then ends as done (as a web stream's does), so the reader's own check says why.
 */
function messageBody(stream: Readable, response: IncomingMessage): ByteStream & { stream: Readable } {
  let cancelled = false;
  const cancel = async (): Promise<void> => {
    cancelled = true;
    response.destroy();
    stream.destroy();
  };
  return {
    stream,
    cancel,
    getReader: () => {
      const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
      return {
        read: async () => {
          try {
            const next = await chunks.next();
            return next.done ? { done: true, value: undefined } : { done: false, value: next.value };
          } catch (error) {
            if (cancelled) return { done: true, value: undefined };
            throw error;
          }
        },
        cancel,
        releaseLock: () => undefined,
      };
    },
  };
}
