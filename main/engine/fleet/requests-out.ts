/**
 * The requests a group of players has out, known by their request timeouts: the client arms one as
 * a request starts and clears it once the exchange is handed over, answered or given up. A fleet's
 * end, and an Artillery virtual user's, wait for those out when it came, so that a request to a
 * server that answers late, or never, is counted (a timeout after its 10 s) rather than dropped:
 * dropped, a silent server showed no request and no error.
 */
import type { RequestTimeouts } from '../player/client.js';
import { REQUEST_TIMEOUT_MS } from '../player/retry.js';

/**
 * Wall ms an end waits at most for the requests out when it came: their own timeout, and a little
 * for the answer given up at its last moment to be counted.
 */
export const DRAIN_LIMIT_MS = REQUEST_TIMEOUT_MS + 2_000;

export class RequestsOut {
  private readonly armed = new Set<unknown>();
  private onCleared: (() => void) | null = null;
  /** What the players' clients arm their request timeouts with (`timeouts`), on `wall`. */
  readonly timeouts: RequestTimeouts;

  constructor(wall: RequestTimeouts) {
    this.timeouts = {
      setTimeout: (callback, delayMs) => {
        const timer = wall.setTimeout(callback, delayMs);
        this.armed.add(timer);
        return timer;
      },
      // The client clears a request's timeout after it handed the exchange over: cleared is counted.
      clearTimeout: (timer) => {
        wall.clearTimeout(timer);
        if (this.armed.delete(timer)) this.onCleared?.();
      },
    };
  }

  /** Resolves once every request out now has been handed over, or after DRAIN_LIMIT_MS. */
  settled(): Promise<void> {
    const waiting = new Set(this.armed);
    if (waiting.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(limit);
        this.onCleared = null;
        resolve();
      };
      const limit = setTimeout(done, DRAIN_LIMIT_MS);
      this.onCleared = () => {
        for (const timer of waiting) if (!this.armed.has(timer)) waiting.delete(timer);
        if (waiting.size === 0) done();
      };
    });
  }
}
