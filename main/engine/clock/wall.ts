/** The real clock behind the engine clock; tests replace it with a manual one. */
export type WallTimer = unknown;

export interface WallClock {
  now(): number;
  setTimeout(callback: () => void, delayMs: number): WallTimer;
  clearTimeout(timer: WallTimer): void;
}

export const systemWall: WallClock = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => {
    const timer = setTimeout(callback, delayMs);
    // A pending engine timer must never keep a closing process alive.
    timer.unref();
    return timer;
  },
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};
