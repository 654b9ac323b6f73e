/**
 * Where items sit in a queue: sparse integer labels, ordered by an index, so that an edit in the
 * middle of a million items touches a handful of rows and a window read is a range scan.
 *
 * Why labels and not an ordinal column: inserting at ordinal i would renumber every item after it
 * (O(n) per edit). Labels leave room: new queues get labels GAP apart, an insert takes a label
 * between its neighbours, and only when two neighbours have no integer left between them is a
 * small stretch around the gap spread out again (list labelling, doubling the stretch until it has
 * room). Each spread leaves at least MIN_SPACING between labels, so at least log2(MIN_SPACING)
 * further inserts at the same spot go by before that stretch is touched again: rebalancing is rare
 * and local. Labels stay well inside the doubles' exact-integer range (±2^53).
 */

/** Distance between the labels of a freshly built list. */
export const GAP = 2 ** 24;
/** The closest labels that a rebalance may leave (so the next ~10 inserts there need none). */
export const MIN_SPACING = 2 ** 10;
/** Labels stay inside ±LIMIT; past it, the whole queue is relabelled around zero. */
export const LIMIT = 2 ** 52;

/**
 * `n` labels strictly between `lo` and `hi` (null: that side is open, the queue's start or end),
 * evenly spread; null when the integers between them are too few. `take`: only the first of them
 * (a step of a longer run plans for all of it; see `insertRows`).
 */
export function labelsBetween(lo: number | null, hi: number | null, n: number, take = n): number[] | null {
  if (n === 0) return [];
  if (lo === null && hi === null) return fresh(take);
  if (lo === null) {
    const start = hi! - n * GAP;
    return start < -LIMIT ? null : Array.from({ length: take }, (_, i) => start + i * GAP);
  }
  if (hi === null) {
    return lo + n * GAP > LIMIT ? null : Array.from({ length: take }, (_, i) => lo + (i + 1) * GAP);
  }
  if (hi - lo - 1 < n) return null;
  return spread(lo, hi, n, take);
}

/** Labels for a list built from scratch. */
export function fresh(n: number): number[] {
  return Array.from({ length: n }, (_, i) => (i + 1) * GAP);
}

/**
 * `n` distinct labels strictly between `lo` and `hi`, evenly spread (needs hi - lo > n); of them,
 * `take` from the `first` (0-based) on.
 */
export function spread(lo: number, hi: number, n: number, take = n, first = 0): number[] {
  const step = (hi - lo) / (n + 1);
  // step ≥ 1, so the floors strictly increase and stay inside (lo, hi).
  return Array.from({ length: take }, (_, i) => lo + Math.floor(step * (first + i + 1)));
}

/** Whether `n` labels spread over (lo, hi) would keep MIN_SPACING apart. */
export function roomy(lo: number, hi: number, n: number): boolean {
  return (hi - lo) / (n + 1) >= MIN_SPACING;
}
