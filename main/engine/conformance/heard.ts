/**
 * What the run heard, over every answer, kept bounded: the cases judged last (timing, Retry-After)
 * need a count, the slowest answers and the 503s, never the answers themselves. A play to the end
 * of a long queue hears tens of thousands of answers, and the check process stays under 300 MB
 * (docs/contract/console.md §8): each list keeps at most HEARD_KEPT answers and counts the rest.
 */
import { parseRetryAfter } from '../player/retry.js';
import type { Answer } from './server.js';

/** Answers slower than this are warnings (`timing`). */
export const SLOW_MS = 1_000;
/** Answers each list keeps: far more than a message names or evidence shows. */
export const HEARD_KEPT = 100;
/** Answers a mean is said over: fewer say little about the server. */
const MEAN_OVER = 3;

/**
 * What to do when a run spent its time waiting on a slow server, said where its time ran out (the
 * run's deadline, the play-through's share of it); '' when the answers were quick: a correct
 * server that takes 3 s an answer needs more than 120 s for the suite's few hundred requests.
 */
export function slowServerNote(heard: Heard): string {
  if (heard.answered < MEAN_OVER || heard.meanMs <= SLOW_MS) return '';
  const mean = (heard.meanMs / 1_000).toFixed(1);
  return ` (the server's ${heard.answered} answers took ${mean} s each on average: a longer deadline, check --timeout S, gives the suite time to finish)`;
}

export class Heard {
  /** Every answer, complete or not. */
  total = 0;
  /** Answers that came (a status), and the slowest of them in ms. */
  answered = 0;
  slowest = 0;
  /** Their latencies summed, ms: the mean says whether a deadline was spent waiting on the server. */
  answeredMs = 0;
  /** Answers over SLOW_MS, the slowest first (at most HEARD_KEPT), and how many there were. */
  readonly slow: Answer[] = [];
  slowCount = 0;
  /** 503s the server sent (a fault rule's are not its), the first HEARD_KEPT, and how many. */
  readonly busy: Answer[] = [];
  busyCount = 0;
  /** Of them, those without a Retry-After a player can read. */
  readonly bare: Answer[] = [];
  bareCount = 0;

  /** The mean latency of the answers that came, ms; 0 before any. */
  get meanMs(): number {
    return this.answered ? this.answeredMs / this.answered : 0;
  }

  add(answer: Answer): void {
    this.total++;
    if (answer.status === undefined) return;
    this.answered++;
    const ms = answer.exchange.latencyMs;
    this.answeredMs += ms;
    this.slowest = Math.max(this.slowest, ms);
    if (ms > SLOW_MS) {
      this.slowCount++;
      keepSlowest(this.slow, answer);
    }
    if (answer.status === 503 && !answer.exchange.fault) {
      this.busyCount++;
      if (this.busy.length < HEARD_KEPT) this.busy.push(answer);
      // One a player cannot read ("soon", "-1") is as good as none: it waits the least, 2 s (audit).
      if (parseRetryAfter(answer.exchange.responseHeaders?.['retry-after'], Date.now()) === undefined) {
        this.bareCount++;
        if (this.bare.length < HEARD_KEPT) this.bare.push(answer);
      }
    }
  }
}

/** Into `slow`, kept slowest first and at most HEARD_KEPT long. */
function keepSlowest(slow: Answer[], answer: Answer): void {
  const ms = answer.exchange.latencyMs;
  if (slow.length === HEARD_KEPT && slow.at(-1)!.exchange.latencyMs >= ms) return;
  const at = slow.findIndex((kept) => kept.exchange.latencyMs < ms);
  slow.splice(at === -1 ? slow.length : at, 0, answer);
  if (slow.length > HEARD_KEPT) slow.pop();
}
