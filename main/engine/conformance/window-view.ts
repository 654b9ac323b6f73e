/** A window as the cases read it, and an item's id: what `facts.ts` and `identities.ts` both build on. */
import type { Answer } from './server.js';

/** A 2xx GET /itemWindow answer whose body is an object with an `items` array. */
export interface WindowView {
  answer: Answer;
  items: unknown[];
  /** Each item's `id` when every item has a non-empty string one; null otherwise. */
  ids: string[] | null;
  includesBeginningOfQueue: unknown;
  includesEndOfQueue: unknown;
  queueVersion: unknown;
}

/** A JSON object (not an array, not null). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An item's id when it has a usable one. */
export function idOf(item: unknown): string | null {
  return isObject(item) && typeof item.id === 'string' && item.id !== '' ? item.id : null;
}
