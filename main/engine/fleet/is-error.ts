/**
 * What a fleet counts as an error, alone in its module so that the Artillery engine's bundle takes
 * it without the fleet's sketches.
 */
import type { PlayerExchange } from '../player/client.js';

/**
 * An error is an answer the player could not use: no complete answer, a status other than 2xx, or
 * a 2xx whose body the player could not read (not JSON, not the shape it must have). The last is
 * what a server answering its HTML error page with 200 does; the platform counts it a failure.
 */
export function isError(exchange: Pick<PlayerExchange, 'status' | 'failure'>): boolean {
  return (
    exchange.failure !== undefined || exchange.status === undefined || exchange.status < 200 || exchange.status >= 300
  );
}
