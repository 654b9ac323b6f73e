/**
 * The refresh grace window (docs/contract/console.md §2): clients often refresh twice at once, so a
 * refresh token that was just rotated away still answers for its integration's `refreshGraceSec`,
 * with a new access token and the current refresh token, revoking nothing.
 *
 * Tokens are stored only as hashes (docs/contract/console.md §9), so the current refresh token
 * cannot be read back from the store: the one a rotation issued is held here, in memory, for as
 * long as the token it replaced may still be presented, and no longer. A restart forgets them: a
 * reuse within grace after one is refused without revoking anything (refresh-token.ts).
 */

/** The refresh token that replaced another, as the client that rotated it got it. */
export interface Successor {
  id: string;
  value: string;
}

/** Enough for every client of a busy console to race once within the window; the oldest go first. */
const MAX_HELD = 10_000;

export class RefreshSuccessors {
  /** By the id of the token replaced; in the order they were rotated. */
  private readonly held = new Map<string, Successor & { until: number }>();

  /** `rotatedId` was replaced by `successor`; it may be presented until engine time `until`. */
  remember(rotatedId: string, successor: Successor, until: number, now: number): void {
    this.forgetExpired(now);
    if (this.held.size >= MAX_HELD) this.held.delete(this.held.keys().next().value!);
    this.held.set(rotatedId, { ...successor, until });
  }

  /** What replaced `rotatedId`, while its window lasts. */
  successorOf(rotatedId: string, now: number): Successor | undefined {
    const entry = this.held.get(rotatedId);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.held.delete(rotatedId);
      return undefined;
    }
    return { id: entry.id, value: entry.value };
  }

  get size(): number {
    return this.held.size;
  }

  /** Rotations come in time order; a window longer than those after it keeps theirs a little longer, within MAX_HELD. */
  private forgetExpired(now: number): void {
    for (const [id, entry] of this.held) {
      if (entry.until > now) return;
      this.held.delete(id);
    }
  }
}
