/** A window as the cases read it, and an item's id: what `facts.ts` and `identities.ts` both build on. */
import { isObject } from '../api/is-object.js';
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
  /**
   * Items past the first MAX_KEPT_ITEMS that a kept window left out (retained.ts): such a window is
   * many times any size the suite asks, and the case that asked fails it; no other judges it.
   */
  itemsLeftOut?: number;
}

/** An item's id when it has a usable one. */
export function idOf(item: unknown): string | null {
  return isObject(item) && typeof item.id === 'string' && item.id !== '' ? item.id : null;
}

/** The first id a window holds twice, if any: one item's id standing for two places in the queue. */
export function repeatedId(view: Pick<WindowView, 'ids'>): string | undefined {
  if (!view.ids) return undefined;
  const seen = new Set<string>();
  return view.ids.find((id) => seen.size === seen.add(id).size);
}
