/**
 * Retry rules of docs/contract/platform.md §7.2–§7.4, on the engine clock. The seed's tables can be read two ways;
 * this file is where the reading is written down:
 *
 * - Foreground requests (the player needs the answer to go on and no control command waits:
 *   a user's skip that waits for the server, a resume, a play/pause intent) follow the
 *   error-type table of §7.2: incomplete 3 retries 2 s apart; 503 3 retries after Retry-After
 *   clamped to 2–10 s; any other error none. When the limit is reached the player goes
 *   PLAYBACK_STATE_IDLE with the error reported (§3 row 5).
 * - loadCloudQueue (§7.3): "The player does not retry before answering the user": no retry of any
 *   kind, the command fails, the state stays as it was.
 * - skipToItem and refreshCloudQueue (§7.3) answer success and then retry like background work.
 * - Background requests (§7.4: next window, queueCompleted, version poll, and the window a changed
 *   version asks for) are retried up to three more times, 10 s apart. A 503's Retry-After is
 *   honoured by that same 10 s (10 s is the top of its clamp); an error the §7.2 table never
 *   retries (other server errors, malformed bodies, 4xx) is not retried in the background either.
 *   When the tries are used up the player plays what is left of its window and then pauses; the
 *   session stays valid (§3 row 4, §7.4.3).
 *
 * The numbers are the API contract's RETRY_SCHEDULE (api/retry-schedule.ts), which every
 * description of the schedule is built from too: one edit there changes the rule and its words.
 */
import { clampRetryAfterSec, RETRY_SCHEDULE } from '../api/retry-schedule.js';

export type FailureKind =
  /** "Connection failure or no complete response" (§7.2), including the 10 s engine-clock timeout. */
  | 'incomplete'
  /** 503 with Retry-After (§7.1, §7.2). */
  | 'unavailable'
  /** 404 (§7.1): the caller decides between "queue emptied" and "session evicted". */
  | 'notFound'
  /** Anything else: other 4xx/5xx, or a success code with a malformed body. */
  | 'other';

export interface Failure {
  kind: FailureKind;
  status?: number;
  /** Seconds from the Retry-After header. */
  retryAfterSec?: number;
  rejectedReason?: string;
  message: string;
  /**
   * An incomplete request on a connection the server took and then broke before a complete answer
   * (a reset, a hang-up, a body cut short): not a timeout, not a connection that was never made.
   * A player's retry 2 s later may get past it (§7.2); a conformance run asks again as it would.
   */
  dropped?: true;
  /**
   * The server answered, but with what no HTTP client reads (headers over its limit or that never
   * end, an answer that breaks HTTP's rules, a redirect loop): an incomplete request like any other
   * to the player, yet the server is there, which a conformance run must not call unreachable.
   */
  unreadable?: true;
}

export const INCOMPLETE_RETRY_WAIT_MS = RETRY_SCHEDULE.incompleteRetryWaitMs;
export const FOREGROUND_RETRY_LIMIT = RETRY_SCHEDULE.foregroundRetries;
export const BACKGROUND_RETRIES = RETRY_SCHEDULE.backgroundRetries;
export const BACKGROUND_RETRY_INTERVAL_MS = RETRY_SCHEDULE.backgroundRetryIntervalMs;
/** A request without a complete response after this long (engine time) is incomplete (docs/contract/console.md §5). */
export const REQUEST_TIMEOUT_MS = RETRY_SCHEDULE.requestTimeoutMs;

/** Wait before the next foreground retry, or null when §7.2 allows none (more). */
export function foregroundRetryDelay(failure: Failure, retriesSoFar: number): number | null {
  if (retriesSoFar >= FOREGROUND_RETRY_LIMIT) return null;
  if (failure.kind === 'incomplete') return INCOMPLETE_RETRY_WAIT_MS;
  if (failure.kind === 'unavailable') return clampRetryAfter(failure.retryAfterSec) * 1_000;
  return null;
}

/** Wait before the next background retry, or null when §7.4 allows none (more). */
export function backgroundRetryDelay(failure: Failure, retriesSoFar: number): number | null {
  if (retriesSoFar >= BACKGROUND_RETRIES) return null;
  return failure.kind === 'incomplete' || failure.kind === 'unavailable' ? BACKGROUND_RETRY_INTERVAL_MS : null;
}

/** "Header value, clamped to 2-10 seconds"; a missing or unreadable header counts as 2 s. */
export function clampRetryAfter(seconds: number | undefined): number {
  return clampRetryAfterSec(seconds);
}

/**
 * An HTTP-date in any of its three forms (RFC 9110 §5.6.7): IMF-fixdate, RFC 850's, asctime's. Asked
 * before `Date.parse`, which reads "-1" and "1.5" as dates of the years -1 and 2001.
 */
const HTTP_DATE =
  /^(?:[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{6,9}, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;

/** Retry-After is delta-seconds or an HTTP date (RFC 9110 §10.2.3); anything else is unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  if (!HTTP_DATE.test(text)) return undefined;
  // asctime's form names no zone, and is GMT (RFC 9110 §5.6.7); Date.parse would read it as local.
  const date = Date.parse(text.endsWith('GMT') ? text : `${text} GMT`);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.round((date - now) / 1_000));
}
