/**
 * How an event leaves the console: one POST, answered or not. The failure-injection layer wraps
 * this (`faults/events-transport.ts`) as it wraps the player's client. The answer's body is read
 * up to a cap: nothing a receiver answers is used, and a receiver must not be able to make the
 * console hold an unbounded body.
 */
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

export const fetchDeliveryTransport: DeliveryTransport = async (request) => {
  // A redirect is not followed: it is not a 2xx, so the event failed (the public service does the same with a 3xx).
  const response = await fetch(request.url, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    redirect: 'manual',
  });
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'content-length', 'location']) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: response.status, headers, body: await readCapped(response, MAX_ANSWER_BYTES) };
};

async function readCapped(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    // The rest is not wanted: the connection is let go rather than drained.
    if (size >= limit) await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}
