/**
 * How much of many answers read at once a process holds (docs/fleet.md, "Bodies in flight").
 * One player reads at most PLAYER_MAX_BODY_BYTES of an answer, which bounds a player; a fleet of
 * a thousand against a server that sends gigabytes would still hold a thousand caps at once.
 *
 * So every answer is read freely up to a small allowance, which every valid window of ordinary
 * size fits in, and past it only while holding one of a few slots: a slot lets its reader go on to
 * the cap, so readers never wait on one another halfway (no two can each hold half of what both
 * need). A reader that waits for a slot reads nothing meanwhile, and the connection's own flow
 * control holds the server back. Held at once: readers × allowance + slots × cap.
 */

export interface BodyBudgetOptions {
  /** Bytes any answer may be read to without a slot. */
  allowanceBytes: number;
  /** Readers past their allowance at once. */
  slots: number;
}

/** Bytes read of an answer before it needs a slot: a window of a hundred items fits. */
export const BODY_ALLOWANCE_BYTES = 64 * 1_024;
/** Slots a fleet shares among its threads: with the player's 8 MB cap, 128 MB of big answers at once. */
export const FLEET_BODY_SLOTS = 16;

export class BodyBudget {
  readonly allowanceBytes: number;
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(options: BodyBudgetOptions) {
    this.allowanceBytes = options.allowanceBytes;
    this.free = Math.max(1, Math.floor(options.slots));
  }

  /** Slots free now (tests). */
  get freeSlots(): number {
    return this.free;
  }

  /** Readers waiting for a slot now. */
  get waitingReaders(): number {
    return this.waiting.length;
  }

  /**
   * A slot, once one is free (first come, first served): resolves with its release, which is safe
   * to call more than once. Throws the signal's reason when it fires first, holding nothing.
   */
  async slot(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.free > 0) {
      this.free--;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const granted = () => {
        signal?.removeEventListener('abort', aborted);
        resolve();
      };
      const aborted = () => {
        const at = this.waiting.indexOf(granted);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(signal!.reason);
      };
      this.waiting.push(granted);
      signal?.addEventListener('abort', aborted, { once: true });
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Handed straight to the next reader waiting, or put back.
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
