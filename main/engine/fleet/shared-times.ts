/**
 * A `times` rule's hits left, one count for all of a fleet's threads. Each worker thread decides
 * on its own copy of a rule (fleet-worker.ts); every hit a copy would take is taken from one
 * integer in shared memory first, so the fleet as a whole fails exactly `times` requests,
 * whichever threads' players meet the rule. Splitting the times between the threads up front
 * failed fewer when only some threads' players met it (a rule on one player's path: its thread's
 * part, not the rule's times).
 */

/** A count of hits left that every thread it is posted to shares (4 bytes of shared memory). */
export type TimesLeft = SharedArrayBuffer;

export function timesLeft(left: number): TimesLeft {
  const cell = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
  Atomics.store(new Int32Array(cell), 0, Math.max(0, Math.min(left, 2 ** 31 - 1)));
  return cell;
}

/** In a worker: the shared counts its rules' copies take their hits from, by rule id. */
export class SharedTimes {
  private readonly counts = new Map<string, Int32Array>();

  bind(ruleId: string, left: TimesLeft): void {
    this.counts.set(ruleId, new Int32Array(left));
  }

  unbind(ruleId: string): void {
    this.counts.delete(ruleId);
  }

  /**
   * Takes one of the rule's hits: true when one was left, false when every thread's copy has
   * taken them all; undefined for a rule with no shared count (its copy counts alone).
   */
  take(ruleId: string): boolean | undefined {
    const count = this.counts.get(ruleId);
    // The count falls below 0 by at most one a copy: a copy told "none left" is spent.
    return count && Atomics.sub(count, 0, 1) > 0;
  }
}
