/**
 * Failure injection at the console's event deliveries (target `events`, docs/contract/console.md
 * §7): the callback seems to answer a status, to hang, to reset the connection, or to be slow,
 * without the event reaching it, as target `player` fails a cloud queue server from inside the
 * player. `malformed` is the exception: the event does go out, with a body that is not JSON, for
 * an integration to see what its receiver does with one. The answer carries the fault so that the
 * traffic log can mark it.
 */
import type { EngineClock } from '../clock/clock.js';
import type { DeliveryTransport } from '../event-delivery/transport.js';
import { InjectedFailure } from './player-transport.js';
import type { FaultRegistry } from './registry.js';
import { injectedStatusHeaders, MALFORMED_BODY } from './server-fault.js';

export function faultingDeliveryTransport(
  inner: DeliveryTransport,
  faults: FaultRegistry,
  clock: EngineClock,
): DeliveryTransport {
  return async (request) => {
    const decision = faults.decide('events', {
      method: 'POST',
      path: URL.canParse(request.url) ? new URL(request.url).pathname : request.url,
    });
    if (!decision) return inner(request);
    const { action, hit } = decision;
    switch (action.type) {
      case 'status': {
        const body = action.body ?? { injected: action.status };
        return {
          status: action.status,
          headers: { 'content-type': 'application/json', ...injectedStatusHeaders(action) },
          body: typeof body === 'string' ? body : JSON.stringify(body),
          fault: hit,
        };
      }
      case 'malformed':
        return { ...(await inner({ ...request, body: MALFORMED_BODY })), fault: hit, sentBody: MALFORMED_BODY };
      case 'drop':
        throw new InjectedFailure('connection reset (injected)', hit);
      case 'timeout':
        // Nothing answers: `advance` must not wait for it, the delivery's own 10 s timer ends it.
        clock.release(request.requestId);
        return new Promise((_, reject) => {
          const fail = () => reject(new InjectedFailure('no answer within 10 s (injected timeout)', hit));
          if (request.signal.aborted) fail();
          else request.signal.addEventListener('abort', fail, { once: true });
        });
      case 'latency': {
        clock.release(request.requestId);
        await new Promise<void>((resolve) => clock.setTimeout(resolve, action.ms, 'injected event latency'));
        return { ...(await clock.track(inner(request))), fault: hit };
      }
    }
  };
}
