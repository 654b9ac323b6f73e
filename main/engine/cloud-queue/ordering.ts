/**
 * Inserting items into a queue's order (see `positions.ts` for the labels). Everything here runs
 * inside the caller's transaction and costs O(items inserted + rows relabelled) plus index lookups.
 */
import { itemIdOf, type ItemTuple, type QueueItemRepository } from '../store/repositories/queue-items.js';
import { GAP, LIMIT, fresh, labelsBetween, roomy, spread } from './positions.js';

export interface NewRow {
  itemId: string;
  item: string;
}

/** Where new items go: after the item at label `afterPos`, at the start (null) or at the end. */
export type Gap = { afterPos: number | null } | 'end';

/**
 * `room`: how many items this gap is to take in all (at least `rows.length`); the rows take the
 * first labels of that plan. A long edit made in steps (see `generation.ts`) gives each step the
 * number still to come, so the labels stay evenly spread over the gap instead of each step
 * squeezing the next against `hi` (which relabelled ever longer stretches, step after step).
 */
export function insertRows(
  items: QueueItemRepository,
  queueKey: number,
  gap: Gap,
  rows: readonly NewRow[],
  room = rows.length,
): void {
  if (rows.length === 0) return;
  if (room < rows.length) throw new RangeError(`room ${room} for ${rows.length} rows`);
  let lo: number | null;
  let hi: number | null;
  if (gap === 'end') {
    lo = items.last(queueKey)?.pos ?? null;
    hi = null;
  } else {
    lo = gap.afterPos;
    hi = (lo === null ? items.first(queueKey) : items.after(queueKey, lo))?.pos ?? null;
  }
  const labels = labelsBetween(lo, hi, room, rows.length);
  if (labels) {
    items.insertMany(queueKey, labels, rows);
    return;
  }
  relabelAround(items, queueKey, lo, hi, rows, room);
}

/** Builds a whole list at once (a new queue, or `items` replaced). */
export function insertFresh(items: QueueItemRepository, queueKey: number, rows: readonly NewRow[]): void {
  items.insertMany(queueKey, fresh(rows.length), rows);
}

/**
 * No integer left between `lo` and `hi`: takes up to n items on each side of the gap, doubling n
 * until the labels just outside that stretch leave room for it and the new rows (a side that
 * reaches the queue's start or end always has room), then lays them all out evenly, planning
 * `room` labels for the new rows, of which they take the first.
 */
function relabelAround(
  items: QueueItemRepository,
  queueKey: number,
  lo: number | null,
  hi: number | null,
  rows: readonly NewRow[],
  room: number,
): void {
  for (let n = 4; ; n *= 2) {
    // Nearest first on the left (the item at `lo` and those before it), in order on the right
    // (the item at `hi` and those after it); labels are integers, so `< lo + 1` is `<= lo`.
    const left = lo === null ? [] : items.before(queueKey, lo + 1, n + 1);
    const right = hi === null ? [] : items.afterMany(queueKey, hi - 1, n + 1);
    const leftBound = left.length > n ? left[n]![0] : null;
    const rightBound = right.length > n ? right[n]![0] : null;
    const moving = [...left.slice(0, n).reverse(), ...right.slice(0, n)];
    const count = moving.length + room;
    const span = (count + 1) * GAP;
    let from: number;
    let to: number;
    if (leftBound === null && rightBound === null) [from, to] = [0, span];
    else if (leftBound === null) [from, to] = [rightBound! - span, rightBound!];
    else if (rightBound === null) [from, to] = [leftBound, leftBound + span];
    else [from, to] = [leftBound, rightBound];
    if (from < -LIMIT || to > LIMIT || !roomy(from, to, count)) continue;

    for (const [pos] of moving) items.deleteAt(queueKey, pos);
    const leftCount = Math.min(left.length, n);
    // The left neighbours, the new rows, then (past the labels kept for the rest of `room`) the
    // right ones: one spread, without making the labels in between.
    const rightCount = moving.length - leftCount;
    const labels = [
      ...spread(from, to, count, leftCount + rows.length),
      ...spread(from, to, count, rightCount, leftCount + room),
    ];
    const ordered = [...moving.slice(0, leftCount).map(asNew), ...rows, ...moving.slice(leftCount).map(asNew)];
    items.insertMany(queueKey, labels, ordered);
    return;
  }
}

const asNew = ([, seq, item]: ItemTuple): NewRow => ({ itemId: itemIdOf(seq), item });
