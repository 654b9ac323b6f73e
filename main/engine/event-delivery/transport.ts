/**
 * How an event leaves the console: one POST, answered or not. The failure-injection layer wraps
 * this (`faults/events-transport.ts`) as it wraps the player's client. The answer's body is read
 * up to a cap: nothing a receiver answers is used, and a receiver must not be able to make the
 * console hold an unbounded body.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { FaultHit } from '../api/fault-types.js';

export interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  /** Names the try for the engine clock (`track` / `release`). */
  requestId: string;
}

export interface DeliveryAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Set when the failure-injection layer made or touched this answer. */
  fault?: FaultHit;
  /** The body that went out, when the failure-injection layer sent another one (`malformed`). */
  sentBody?: string;
}

export type DeliveryTransport = (request: DeliveryRequest) => Promise<DeliveryAnswer>;

/** The most of an answer's body kept: the traffic log shows the start of what a receiver said. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * One POST over node:http(s), not fetch: the Fetch standard blocks ports (6000, 10080, …) that an
 * integrator's event handler may listen on, and the platform delivers there all the same.
 */
export const httpDeliveryTransport: DeliveryTransport = (request) =>
  new Promise((resolve, reject) => {
    const { signal } = request;
    if (signal.aborted) return reject(signal.reason as Error);
    let outgoing: ClientRequest;
    try {
      const url = new URL(request.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return reject(new Error('request failed', { cause: new Error(`unsupported protocol ${url.protocol}`) }));
      outgoing = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      });
    } catch (error) {
      return reject(new Error('request failed', { cause: error }));
    }
    const onAbort = (): void => void outgoing.destroy(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    const done = (): void => signal.removeEventListener('abort', onAbort);
    outgoing.on('error', (error) => {
      done();
      reject(signal.aborted ? (signal.reason as Error) : new Error('request failed', { cause: error }));
    });
    // A redirect is not followed: it is not a 2xx, so the event failed (the public service does the same with a 3xx).
    outgoing.on('response', (response) => {
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'content-length', 'location']) {
        const value = response.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      readCapped(response, MAX_ANSWER_BYTES).then(
        (body) => {
          done();
          resolve({ status: response.statusCode ?? 0, headers, body });
        },
        (error: unknown) => {
          done();
          reject(signal.aborted ? (signal.reason as Error) : new Error('request failed', { cause: error }));
        },
      );
    });
    outgoing.end(request.body);
  });

/** Up to `limit` bytes of the body; the rest is not wanted, and the connection is let go rather than drained. */
async function readCapped(response: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).byteLength;
    if (size >= limit) {
      response.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}
