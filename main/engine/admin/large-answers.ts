/**
 * How many answers that may run to megabytes (a command whose spec says `largeAnswer`: a page of
 * the traffic log, an export, a whole queue) the admin API makes at once (docs/contract/console.md
 * §9). Each alone is made in slices, the other listeners answered in between; forty at once held
 * forty half-made answers: 1.5 GB, and every listener stalled up to 1.9 s by the collector
 * (outsider: 40 × `GET /traffic?limit=5000`, 8.4 MB each). Past LARGE_ANSWERS_AT_ONCE, a call waits
 * its turn, first come first served; past LARGE_ANSWERS_WAITING waiting, it is answered 503 with
 * Retry-After (security/turns.ts). A turn ends once the answer is made, as bytes (or, written in
 * turns, has been written): an answer its client does not read holds only those bytes, which the
 * listener's own cap on unread answers bounds.
 */
import { Turns, type EndTurn } from '../security/turns.js';

/** Answers made at once, all admin routes together. */
export const LARGE_ANSWERS_AT_ONCE = 1;
/** Calls that may wait for a turn; one more is refused. */
export const LARGE_ANSWERS_WAITING = 64;
/** What a refused caller is told to wait, in seconds. */
export const LARGE_ANSWER_RETRY_AFTER_S = 2;

export type { EndTurn } from '../security/turns.js';

/** The admin API's turns for large answers: a busy refusal is an Error with its status. */
export class LargeAnswers {
  private readonly turns: Turns;

  constructor(atOnce = LARGE_ANSWERS_AT_ONCE, mayWait = LARGE_ANSWERS_WAITING) {
    this.turns = new Turns(atOnce, mayWait);
  }

  /**
   * A turn, once one is free; an Error with status 503 when too many wait. `gone` resolves when the
   * caller has gone: a call that waits no more gives up its place.
   */
  async turn(gone: Promise<void>): Promise<EndTurn | Error> {
    const { making, waiting } = this.turns.load;
    const end = await this.turns.take(gone);
    if (end) return end;
    return Object.assign(
      new Error(
        `${making} large answers are being made and ${waiting} more wait: try again in ${LARGE_ANSWER_RETRY_AFTER_S} s`,
      ),
      { statusCode: 503, retryAfter: LARGE_ANSWER_RETRY_AFTER_S },
    );
  }

  /** Answers being made now, and calls waiting for a turn (tests, and a busy console's diagnosis). */
  get load(): { making: number; waiting: number } {
    return this.turns.load;
  }
}
