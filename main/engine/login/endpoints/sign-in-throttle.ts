/**
 * Failed sign-ins throttled per username (docs/contract/console.md §2, §9): after
 * FAILURES_BEFORE_LOCK wrong passwords for one username, that username is refused for a delay
 * that doubles with each further failure, on the engine clock, whichever sign-in (authorize
 * request) the attempts come through. Unknown usernames are throttled alike, so a lock does not
 * tell which names exist.
 */
import type { EngineClock } from '../../clock/clock.js';
import { sha256 } from '../secrets.js';

export const FAILURES_BEFORE_LOCK = 5;
/** The first lock; each failure after it doubles the next one, up to MAX_LOCK_MS. */
export const FIRST_LOCK_MS = 30_000;
export const MAX_LOCK_MS = 15 * 60_000;
/** A username that failed no sign-in for this long starts again from zero. */
export const FAILURE_MEMORY_MS = 60 * 60_000;
/**
 * Usernames tracked at most: the form takes any name, and memory must not grow with them. The one
 * whose last failure is oldest and that is not locked goes first, so a flood of made-up names
 * does not free a locked user early.
 */
export const MAX_TRACKED_USERNAMES = 10_000;

interface Failures {
  count: number;
  lastAt: number;
  lockedUntil: number;
}

export type SignInGate = { ok: true } | { ok: false; retryAfterSec: number };

export class SignInThrottle {
  /** By a hash of the username (any length the form allows costs the same), oldest failure first. */
  private readonly byUser = new Map<string, Failures>();

  constructor(private readonly clock: Pick<EngineClock, 'now'>) {}

  /** Whether a password for `username` may be checked now. */
  check(username: string): SignInGate {
    const now = this.clock.now();
    const failures = this.current(keyOf(username), now);
    if (!failures || failures.lockedUntil <= now) return { ok: true };
    return { ok: false, retryAfterSec: Math.max(1, Math.ceil((failures.lockedUntil - now) / 1000)) };
  }

  /** Counts a wrong password for `username`; answers whether the next attempt may come. */
  failed(username: string): SignInGate {
    const key = keyOf(username);
    const now = this.clock.now();
    const failures = this.current(key, now) ?? { count: 0, lastAt: now, lockedUntil: 0 };
    failures.count++;
    failures.lastAt = now;
    const beyond = failures.count - FAILURES_BEFORE_LOCK;
    if (beyond >= 0) failures.lockedUntil = now + Math.min(FIRST_LOCK_MS * 2 ** Math.min(beyond, 16), MAX_LOCK_MS);
    // Moved to the end: the map stays ordered by last failure.
    this.byUser.delete(key);
    this.byUser.set(key, failures);
    if (this.byUser.size > MAX_TRACKED_USERNAMES) this.forgetOne(now);
    return this.check(username);
  }

  /** The right password: the count starts again. */
  succeeded(username: string): void {
    this.byUser.delete(keyOf(username));
  }

  private current(key: string, now: number): Failures | undefined {
    const failures = this.byUser.get(key);
    if (failures && failures.lockedUntil <= now && failures.lastAt + FAILURE_MEMORY_MS <= now) {
      this.byUser.delete(key);
      return undefined;
    }
    return failures;
  }

  private forgetOne(now: number): void {
    for (const [key, failures] of this.byUser) {
      if (failures.lockedUntil <= now) {
        this.byUser.delete(key);
        return;
      }
    }
    this.byUser.delete(this.byUser.keys().next().value!);
  }
}

function keyOf(username: string): string {
  return sha256(username).toString('base64url');
}
