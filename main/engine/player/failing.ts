/**
 * Whether a player's requests fail now, for the household's tabs and the player panel. The
 * player's state alone does not say it: a report that fails never stops playback
 * (docs/contract/platform.md §7.1, §2.3), so a player whose token expired a day into a session
 * stays PLAYING while every report it sends is answered 401, and its last error said so only
 * inside its panel.
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

/** A queue's key among the runs: its base URL and the Authorization its requests carry. */
const keyOf = (target: QueueTarget): string =>
  `${authorizationOf(target.httpAuthorization) ?? ''}\n${target.queueBaseUrl}`;

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

/**
 * One player's mark: a run per queue (the one played and the one a load is asking for can fail
 * apart: a refused load of another queue must not end or restart the run of the queue played).
 * `now`: those queues, the played one first (absent ones as null). A run of a queue no longer in
 * `now` is dropped (`prune`), so a queue loaded again starts clean.
 */
export class FailingMark {
  private readonly runs = new Map<string, PlayerFailing>();

  shown(now: readonly (QueueTarget | null | undefined)[]): PlayerFailing | null {
    for (const target of now) {
      const run = target && this.runs.get(keyOf(target));
      if (run) return run;
    }
    return null;
  }

  /** Takes a finished exchange into its queue's run; answers whether what `shown` gives changed. */
  note(exchange: PlayerExchange, now: readonly (QueueTarget | null | undefined)[]): boolean {
    // Nearly every exchange: a success with no run to end changes nothing, and needs no URL compared.
    if (exchange.failure === undefined && this.runs.size === 0) return false;
    const target = now.find((each): each is QueueTarget => !!each && sentTo(exchange, each));
    if (!target) return false;
    const before = this.shown(now);
    const key = keyOf(target);
    const failing = failingAfter(this.runs.get(key) ?? null, exchange);
    if (failing) this.runs.set(key, failing);
    else this.runs.delete(key);
    this.prune(now);
    return this.shown(now) !== before;
  }

  /** Lets go of the runs of queues the player neither plays nor loads. */
  prune(now: readonly (QueueTarget | null | undefined)[]): void {
    if (this.runs.size === 0) return;
    const kept = new Set(now.flatMap((target) => (target ? [keyOf(target)] : [])));
    for (const key of this.runs.keys()) if (!kept.has(key)) this.runs.delete(key);
  }
}
