/**
 * What a fleet counts as an error, alone in its module so that the Artillery engine's bundle takes
 * it without the fleet's sketches.
 */
import { SKIP_REASONS } from '../cloud-queue/reasons.js';
import type { PlayerExchange } from '../player/client.js';

/**
 * An error is an answer the player could not use: no complete answer, a status other than 2xx, or
 * a 2xx whose body the player could not read (not JSON, not the shape it must have). The last is
 * what a server answering its HTML error page with 200 does; the platform counts it a failure.
 * A 403 to a skip is not one: it answers the skip itself (the platform's 403, with
 * `X-Rejected-Reason`), the player takes it as the skip refused and the track plays on, as a server
 * whose policies limit skips answers; counted as an error, `errors<1%` failed such a server under
 * any `--skip-rate` (review).
 */
export function isError(exchange: Pick<PlayerExchange, 'status' | 'failure' | 'reason'>): boolean {
  if (exchange.status === 403 && exchange.reason !== undefined && SKIP_REASONS.has(exchange.reason)) return false;
  return (
    exchange.failure !== undefined || exchange.status === undefined || exchange.status < 200 || exchange.status >= 300
  );
}
