/**
 * Whether a player's requests fail now, for the household's tabs and the player panel. The
 * player's state alone does not say it: a report that fails never stops playback (platform §7.1,
 * §2.3), so a player whose token expired a day into a session stays PLAYING while every report it
 * sends is answered 401, and its last error said so only inside its panel. The mark is the
 * player's newest finished request: set by a failure (counting the failures in a row), let go by
 * the next request that succeeds, whatever it asked.
 *
 * Only requests to the queue the player plays or is loading count: a new load posts the final
 * report of the track it cut off to the queue before, with that queue's token, and its 401 is
 * about a queue the player has left (the player's own lastError still notes it).
 */
import type { PlayerFailing } from '../api/player-types.js';
import { endpointUrl, type CloudQueueTarget, type PlayerExchange } from './client.js';
import { shown } from './shown.js';

/** Whether `exchange` went to `target`: its endpoint under the target's base URL, with its Authorization. */
export function sentTo(
  exchange: PlayerExchange,
  target: Pick<CloudQueueTarget, 'queueBaseUrl' | 'httpAuthorization'>,
): boolean {
  if ((exchange.requestHeaders.authorization ?? undefined) !== target.httpAuthorization) return false;
  if (!URL.canParse(target.queueBaseUrl)) return exchange.url === target.queueBaseUrl;
  const query = exchange.url.indexOf('?');
  return (
    (query === -1 ? exchange.url : exchange.url.slice(0, query)) === endpointUrl(target.queueBaseUrl, exchange.endpoint)
  );
}

/** The mark after `exchange` finished, given the one before it (the same object when nothing changed). */
export function failingAfter(before: PlayerFailing | null, exchange: PlayerExchange): PlayerFailing | null {
  const { failure } = exchange;
  if (failure === undefined) return null;
  return {
    since: before?.since ?? exchange.startedAt,
    count: (before?.count ?? 0) + 1,
    endpoint: exchange.endpoint,
    ...(failure.status !== undefined ? { status: failure.status } : {}),
    message: shown(failure.message),
    at: exchange.startedAt + exchange.durationMs,
  };
}
