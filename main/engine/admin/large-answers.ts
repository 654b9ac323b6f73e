/**
 * How many answers that may run to megabytes (a command whose spec says `largeAnswer`: a page of
 * the traffic log, an export, a whole queue) the admin API makes at once (docs/contract/console.md
 * §9). Each alone is made in slices, the other listeners answered in between; forty at once held
 * forty half-made answers: 1.5 GB, and every listener stalled up to 1.9 s by the collector
 * (outsider: 40 × `GET /traffic?limit=5000`, 8.4 MB each). Past LARGE_ANSWERS_AT_ONCE, a call waits
 * its turn, first come first served; past LARGE_ANSWERS_WAITING waiting, it is answered 503 with
 * Retry-After. A turn ends once the answer is text (or, written in turns, has been written): an
 * answer its client does not read holds only that text, which the listener's own cap on unread
 * answers bounds.
 */

/** Answers made at once, all admin routes together. */
export const LARGE_ANSWERS_AT_ONCE = 1;
/** Calls that may wait for a turn; one more is refused. */
export const LARGE_ANSWERS_WAITING = 64;
/** What a refused caller is told to wait, in seconds. */
export const LARGE_ANSWER_RETRY_AFTER_S = 2;

/** Ends a turn; called more than once, it ends it once. */
export type EndTurn = () => void;

export class LargeAnswers {
  private making = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly atOnce = LARGE_ANSWERS_AT_ONCE,
    private readonly mayWait = LARGE_ANSWERS_WAITING,
  ) {}

  /**
   * A turn, once one is free; an Error with status 503 when too many wait. `gone` resolves when the
   * caller has gone: a call that waits no more gives up its place.
   */
  async turn(gone: Promise<void>): Promise<EndTurn | Error> {
    if (this.making < this.atOnce) {
      this.making++;
      return this.ender();
    }
    if (this.waiting.length >= this.mayWait)
      return Object.assign(
        new Error(
          `${this.atOnce} large answers are being made and ${this.waiting.length} more wait: try again in ${LARGE_ANSWER_RETRY_AFTER_S} s`,
        ),
        { statusCode: 503, retryAfter: LARGE_ANSWER_RETRY_AFTER_S },
      );
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    this.waiting.push(wake);
    // A turn ending hands its place to the first waiting, never back to the count: one that came
    // meanwhile does not take it first.
    const left = await Promise.race([woken.then(() => false), gone.then(() => true)]);
    if (!left) return this.ender();
    const at = this.waiting.indexOf(wake);
    // Handed a turn as it went: the turn goes on to the next.
    if (at === -1) this.pass();
    else this.waiting.splice(at, 1);
    return () => undefined;
  }

  /** Answers being made now, and calls waiting for a turn (tests, and a busy console's diagnosis). */
  get load(): { making: number; waiting: number } {
    return { making: this.making, waiting: this.waiting.length };
  }

  private ender(): EndTurn {
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.pass();
    };
  }

  private pass(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.making--;
  }
}
