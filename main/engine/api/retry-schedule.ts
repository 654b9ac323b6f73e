/**
 * The player's retry schedule (docs/contract/platform.md §7.2, §7.4, §8) in one place: player/retry.ts
 * and the version poll run by these numbers, and every description of them (fault presets, Trigger
 * now's notes, the renderer's scenario templates, the storm bundle) is built by `describeRetrySchedule`.
 * It is part of the API contract because the renderer describes the schedule too.
 */

export interface RetrySchedule {
  /** §7.4: retries of a background request after its first try, each this long after the try before. */
  backgroundRetries: number;
  backgroundRetryIntervalMs: number;
  /** §7.2: retries of a foreground request; an incomplete one waits this long before each. */
  foregroundRetries: number;
  incompleteRetryWaitMs: number;
  /** §7.2: a 503's Retry-After, "clamped to 2-10 seconds". */
  retryAfterClampSec: readonly [min: number, max: number];
  /** docs/contract/console.md §5: a request without a complete response after this long is incomplete. */
  requestTimeoutMs: number;
  /** §8: "Every 5 minutes while paused; every 10 minutes while playing". */
  versionPollPausedMs: number;
  versionPollPlayingMs: number;
}

export const RETRY_SCHEDULE: Readonly<RetrySchedule> = {
  backgroundRetries: 3,
  backgroundRetryIntervalMs: 10_000,
  foregroundRetries: 3,
  incompleteRetryWaitMs: 2_000,
  retryAfterClampSec: [2, 10],
  requestTimeoutMs: 10_000,
  versionPollPausedMs: 300_000,
  versionPollPlayingMs: 600_000,
};

const WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
/** A count in words up to ten, as the console's texts write one ("three retries"). */
export const countWords = (count: number): string => WORDS[count] ?? String(count);
/** A span as the console's texts write one: `10 s`, `2.5 s`, `10 min`. */
export const spanWords = (ms: number): string =>
  ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1_000} s`;

/** The phrases every description of the schedule is made of. */
export interface RetryScheduleWords {
  /** `retried 3 times, 10 s apart` */
  backgroundRetried: string;
  /** `three background retries` */
  backgroundRetries: string;
  /** Tries of a background request in all, its first included (a fault rule's `times` to fail them all). */
  backgroundTries: number;
  /** `four tries` */
  backgroundTriesWords: string;
  /** `10 s`: between background tries. */
  backgroundInterval: string;
  /** `retried 3 times, 3 s apart`, for a foreground request that meets 503s with this Retry-After. */
  foregroundRetried(retryAfterSec: number | undefined): string;
  /** `10 s`: how long a request waits for its answer. */
  requestTimeout: string;
  /** Engine time from a background request's first try until its last one, unanswered, is given up. */
  timeoutsExhaustedMs: number;
  /** `10 min`: the version poll's interval while playing. */
  versionPollPlaying: string;
  /** Engine time from the start of playback until a version poll that always fails has no retry left. */
  versionPollExhaustedMs: number;
}

/** "Header value, clamped to 2-10 seconds"; a missing or unreadable header counts as the bottom. */
export function clampRetryAfterSec(seconds: number | undefined, schedule: RetrySchedule = RETRY_SCHEDULE): number {
  const [min, max] = schedule.retryAfterClampSec;
  if (seconds === undefined || !Number.isFinite(seconds)) return min;
  return Math.min(max, Math.max(min, seconds));
}

export function describeRetrySchedule(schedule: RetrySchedule = RETRY_SCHEDULE): RetryScheduleWords {
  const interval = spanWords(schedule.backgroundRetryIntervalMs);
  const tries = schedule.backgroundRetries + 1;
  return {
    backgroundRetried: `retried ${schedule.backgroundRetries} times, ${interval} apart`,
    backgroundRetries: `${countWords(schedule.backgroundRetries)} background retries`,
    backgroundTries: tries,
    backgroundTriesWords: `${countWords(tries)} tries`,
    backgroundInterval: interval,
    foregroundRetried: (retryAfterSec) =>
      `retried ${schedule.foregroundRetries} times, ${clampRetryAfterSec(retryAfterSec, schedule)} s apart`,
    requestTimeout: spanWords(schedule.requestTimeoutMs),
    timeoutsExhaustedMs: schedule.backgroundRetries * schedule.backgroundRetryIntervalMs + schedule.requestTimeoutMs,
    versionPollPlaying: spanWords(schedule.versionPollPlayingMs),
    versionPollExhaustedMs:
      schedule.versionPollPlayingMs + schedule.backgroundRetries * schedule.backgroundRetryIntervalMs,
  };
}
