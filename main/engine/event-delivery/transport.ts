/**
 * How an event leaves the console: one POST, answered or not. The failure-injection layer wraps
 * this (`faults/events-transport.ts`) as it wraps the player's client. The answer's body is read
 * up to a cap: nothing a receiver answers is used, and a receiver must not be able to make the
 * console hold an unbounded body.
 */
import type { IncomingMessage } from 'node:http';
import type { FaultHit } from '../api/fault-types.js';
import { requestOnce } from '../player/http-transport.js';

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
 * integrator's event handler may listen on, and the platform delivers there all the same. The
 * player's single request (`player/http-transport.ts`) carries it: a redirect is not followed, as
 * it is not a 2xx, so the event failed (the public service does the same with a 3xx).
 */
export const httpDeliveryTransport: DeliveryTransport = async (request) => {
  const response = await requestOnce({
    method: 'POST',
    url: request.url,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
  });
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'content-length', 'location']) {
    const value = response.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  try {
    return { status: response.statusCode ?? 0, headers, body: await readCapped(response, MAX_ANSWER_BYTES) };
  } catch (error) {
    throw request.signal.aborted ? (request.signal.reason as Error) : new Error('request failed', { cause: error });
  }
};

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
