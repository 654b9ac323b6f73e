/**
 * Failure injection inside the player's own HTTP client (target `player`): it works against any
 * cloud queue server, the console's or one the user runs elsewhere, because the request never
 * needs to reach it. The answer carries the fault so the traffic log can mark it.
 */
import type { FaultHit } from '../api/fault-types.js';
import type { EngineClock, Timer } from '../clock/clock.js';
import type { HttpResponse, HttpTransport, RequestTimeouts } from '../player/client.js';
import type { FaultRegistry } from './registry.js';
import { reasonAsWritten } from '../cloud-queue/reasons.js';
import { injectedStatusHeaders, MALFORMED_BODY } from './server-fault.js';

export class InjectedFailure extends Error {
  constructor(
    message: string,
    readonly fault: FaultHit,
  ) {
    super(message);
    this.name = 'InjectedFailure';
  }
}

function synthetic(status: number, body: string, headers: Record<string, string>, fault: FaultHit): HttpResponse {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { status, headers: { get: (name) => lower.get(name.toLowerCase()) ?? null }, text: async () => body, fault };
}

function reasonOf(url: URL): string | undefined {
  const reason = url.searchParams.get('reason');
  return reason === null ? undefined : reasonAsWritten(reason);
}

/**
 * `latencyWaits`: where an injected latency is waited out; default the engine clock, as a
 * scenario's replay (clock stopped, stepped) needs it. A fleet passes a wall timer: its players'
 * network is never compressed, so a server "2 s late" is 2 s late at any speed, as it would be.
 */
export function faultingTransport(
  inner: HttpTransport,
  faults: FaultRegistry,
  clock: EngineClock,
  latencyWaits: RequestTimeouts = engineWaits(clock),
): HttpTransport {
  return async (request) => {
    const url = new URL(request.url);
    const decision = faults.decide('player', { method: request.method, path: url.pathname, reason: reasonOf(url) });
    if (!decision) return inner(request);
    const { action, hit } = decision;
    const requestId = request.headers['x-request-id'];
    switch (action.type) {
      case 'status': {
        const headers = { 'content-type': 'application/json', ...injectedStatusHeaders(action) };
        const body = action.body ?? {
          error: { code: action.status, message: `injected fault: ${action.status}`, errors: [] },
        };
        return synthetic(action.status, typeof body === 'string' ? body : JSON.stringify(body), headers, hit);
      }
      case 'malformed':
        return synthetic(200, MALFORMED_BODY, { 'content-type': 'application/json' }, hit);
      case 'drop':
        throw new InjectedFailure('connection reset (injected)', hit);
      case 'timeout':
        if (requestId) clock.release(requestId);
        return new Promise<HttpResponse>((_, reject) => {
          const fail = () => reject(new InjectedFailure('no complete response within 10 s (injected timeout)', hit));
          if (request.signal.aborted) fail();
          else request.signal.addEventListener('abort', fail, { once: true });
        });
      case 'latency': {
        if (requestId) clock.release(requestId);
        // As a slow server's answer: the request's signal ends the wait (a conformance run
        // stopped, or the console closing, waited out the whole latency: ui-x3 U6).
        await new Promise<void>((resolve, reject) => {
          const { signal } = request;
          if (signal.aborted) return reject(signal.reason as Error);
          const timer = latencyWaits.setTimeout(() => {
            signal.removeEventListener('abort', abort);
            resolve();
          }, action.ms);
          const abort = () => {
            latencyWaits.clearTimeout(timer);
            reject(signal.reason as Error);
          };
          signal.addEventListener('abort', abort, { once: true });
        });
        const response = await clock.track(inner(request));
        return Object.assign(response, { fault: hit });
      }
    }
  };
}

function engineWaits(clock: EngineClock): RequestTimeouts {
  return {
    setTimeout: (callback, delayMs) => clock.setTimeout(callback, delayMs, 'injected latency'),
    clearTimeout: (timer) => clock.clearTimeout(timer as Timer),
  };
}
