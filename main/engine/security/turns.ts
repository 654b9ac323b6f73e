/**
 * How many of one costly kind of work run at once, the rest waiting their turn in the order they
 * came, a bounded number of them (docs/security.md): password checks, large admin answers. A turn
 * ending is handed straight to the first waiting, never back to the count, so one that comes
 * meanwhile does not take it first; a caller that has gone gives up its place.
 */

/** Ends a turn; called more than once, it ends it once. */
export type EndTurn = () => void;

export class Turns {
  private taken = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly atOnce: number,
    readonly mayWait: number,
  ) {}

  /** A turn, once one is free; null when `mayWait` wait already. `gone` resolves when the caller has gone. */
  async take(gone?: Promise<void>): Promise<EndTurn | null> {
    if (this.taken < this.atOnce) {
      this.taken++;
      return this.ender();
    }
    if (this.waiting.length >= this.mayWait) return null;
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    this.waiting.push(wake);
    const left = await Promise.race([woken.then(() => false), ...(gone ? [gone.then(() => true)] : [])]);
    if (!left) return this.ender();
    const at = this.waiting.indexOf(wake);
    // Handed a turn as it went: the turn goes on to the next.
    if (at === -1) this.pass();
    else this.waiting.splice(at, 1);
    return () => undefined;
  }

  /** Turns taken now, and callers waiting for one. */
  get load(): { making: number; waiting: number } {
    return { making: this.taken, waiting: this.waiting.length };
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
    else this.taken--;
  }
}
