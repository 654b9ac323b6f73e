/**
 * Whether a player's requests fail now, for the household's tabs and the player panel. The
 * player's state alone does not say it: a report that fails never stops playback (platform §7.1,
 * §2.3), so a player whose token expired a day into a session stays PLAYING while every report it
 * sends is answered 401, and its last error said so only inside its panel.
 *
 * The mark is a run of failures of the player's newest finished requests to one queue (its base
 * URL and Authorization): set by a failure, counted from the first, let go by the next request to
 * that queue that succeeds. It shows only while that queue is the one the player plays or is
 * loading: a load refused leaves the player on the queue it had (the caller got the error), a
 * storm that used up its retries or a 404 leaves it with none (its last error says why), and a
 * final report a new load posts to the queue before is about a queue the player left.
 */
import type { PlayerFailing } from '../api/player-types.js';
import { endpointUrl, type CloudQueueTarget, type PlayerExchange } from './client.js';
import { shown } from './shown.js';

/** A queue as the player's requests address it. */
export type QueueTarget = Pick<CloudQueueTarget, 'queueBaseUrl' | 'httpAuthorization'>;

/** An empty Authorization is sent as none (the client leaves the header out). */
const authorizationOf = (value: string | undefined): string | undefined => value || undefined;

/** Whether `exchange` went to `target`: its endpoint under the target's base URL, with its Authorization. */
export function sentTo(exchange: PlayerExchange, target: QueueTarget): boolean {
  if (authorizationOf(exchange.requestHeaders.authorization) !== authorizationOf(target.httpAuthorization))
    return false;
  if (!URL.canParse(target.queueBaseUrl)) return exchange.url === target.queueBaseUrl;
  const query = exchange.url.indexOf('?');
  return (
    (query === -1 ? exchange.url : exchange.url.slice(0, query)) === endpointUrl(target.queueBaseUrl, exchange.endpoint)
  );
}

const sameTarget = (a: QueueTarget, b: QueueTarget): boolean =>
  a.queueBaseUrl === b.queueBaseUrl && authorizationOf(a.httpAuthorization) === authorizationOf(b.httpAuthorization);

/** The run after `exchange` finished, given the run before it (of the same queue): null once one succeeds. */
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

/** One player's mark. `now`: the queues it plays and loads (absent ones as null). */
export class FailingMark {
  private run: { failing: PlayerFailing; target: QueueTarget } | null = null;

  shown(now: readonly (QueueTarget | null | undefined)[]): PlayerFailing | null {
    const { run } = this;
    return run && now.some((target) => target && sameTarget(target, run.target)) ? run.failing : null;
  }

  /** Takes a finished exchange into the run; answers whether what `shown` gives changed. */
  note(exchange: PlayerExchange, now: readonly (QueueTarget | null | undefined)[]): boolean {
    const target = now.find((each): each is QueueTarget => !!each && sentTo(exchange, each));
    if (!target) return false;
    const same = this.run !== null && sameTarget(this.run.target, target);
    // A success ends its own queue's run only; a failure of another queue starts a run of its own.
    if (exchange.failure === undefined && !same) return false;
    const before = this.shown(now);
    const failing = failingAfter(same ? this.run!.failing : null, exchange);
    this.run = failing && { failing, target };
    return failing !== null || before !== null;
  }
}
