/**
 * A queueVersion as the suite reads it (docs/contract/platform.md §4.3): a non-empty string, in a
 * window or in GET /version's answer. The version case, the run-long tally and its case read it
 * the same way.
 */
import { is2xx, outcomeOf, requestLine, type Answer } from './server.js';

export function isVersion(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** Both are versions, and not the same: the queue was edited between the two answers that carried them. */
export function otherVersion(before: unknown, after: unknown): boolean {
  return isVersion(before) && isVersion(after) && before !== after;
}

/** GET /version's queueVersion, or what is wrong with the answer. */
export function versionOf(answer: Answer): string | { problem: string } {
  const asked = requestLine(answer);
  if (!is2xx(answer)) return { problem: `${asked}: expected 200 with {"queueVersion"}, got ${outcomeOf(answer)}` };
  const body = answer.json as { queueVersion?: unknown } | undefined;
  if (typeof body !== 'object' || body === null || !isVersion(body.queueVersion)) {
    return {
      problem: `${asked}: expected {"queueVersion": a non-empty string}, got ${answer.text.trim() ? answer.text.trim().slice(0, 120) : 'an empty body'}`,
    };
  }
  return body.queueVersion;
}
