/**
 * What the traffic log's filters read, for every entry it holds, in memory: id, engine time,
 * target, status, reason (interned) and a hash of the request id, as typed columns in a ring that
 * grows with the log and drops its oldest entries from the head. Typed arrays, not objects: the
 * collector never visits them, and an entry costs 30 bytes (3 MB for the default 100,000).
 *
 * Read from the segments' summaries when the log opens, then kept up to date by every write.
 * A reason beyond the first MAX_REASONS distinct ones, and a request id (compared by hash), are
 * only candidates here: the reader checks them against the stored summary.
 */
import { PART, type SegmentSummary, type SegmentWriter } from './codec.js';

/** No reason, or no request id. */
const NO_KEY = 0;
/** A reason past the interned ones: compare the stored one. */
export const OTHER_REASON = 0xffff_ffff;
const MAX_REASONS = 4_096;

/** FNV-1a of a request id: 0 is kept for none. */
export function requestIdKey(requestId: string | null): number {
  if (requestId === null) return NO_KEY;
  let hash = 0x811c9dc5;
  for (let i = 0; i < requestId.length; i++) hash = Math.imul(hash ^ requestId.charCodeAt(i), 0x01000193);
  return hash >>> 0 || 1;
}

/** In ids ascending (`idAt(0)`…`idAt(size - 1)`), the first k whose id is greater than `id` (`size` when none is). */
export function firstAfter(size: number, idAt: (k: number) => number, id: number): number {
  let low = 0;
  let high = size;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (idAt(middle) <= id) low = middle + 1;
    else high = middle;
  }
  return low;
}

export class TrafficIndex {
  /** Entries held; position 0 is the oldest. */
  size = 0;
  private head = 0;
  private mask = 0;
  ids = new Float64Array(0);
  at = new Float64Array(0);
  status = new Int32Array(0);
  target = new Uint8Array(0);
  reason = new Uint32Array(0);
  requestId = new Uint32Array(0);
  private readonly reasons = new Map<string, number>();

  /** The column slot of a position. */
  slot(position: number): number {
    return (this.head + position) & this.mask;
  }

  idAt(position: number): number {
    return this.ids[this.slot(position)]!;
  }

  get newestId(): number {
    return this.size === 0 ? 0 : this.idAt(this.size - 1);
  }

  /** The code of a reason as captured: OTHER_REASON when it was never interned. */
  reasonCode(reason: string): number {
    return this.reasons.get(reason) ?? OTHER_REASON;
  }

  /** Adds a stored segment's entries after the newest (those at or below `droppedThrough` are not held): what the log does when it opens. */
  addSegment(segment: SegmentSummary, droppedThrough = 0): void {
    const skip = Math.max(0, droppedThrough - segment.firstId + 1);
    this.reserve(segment.count - skip);
    for (let i = skip; i < segment.count; i++) {
      this.put(
        segment.firstId + i,
        segment.at[i]!,
        segment.status[i]!,
        segment.target[i]!,
        this.reasonKey(segment.part(i, PART.reason)),
        requestIdKey(segment.part(i, PART.requestId)),
      );
    }
  }

  /** Adds the entries of a segment just written, from the columns its writer kept. */
  addWritten(firstId: number, writer: SegmentWriter): void {
    this.reserve(writer.count);
    for (let i = 0; i < writer.count; i++)
      this.put(
        firstId + i,
        writer.at[i]!,
        writer.status[i]!,
        writer.target[i]!,
        writer.reasonKey[i]!,
        writer.requestKey[i]!,
      );
  }

  /** The key a reason is filed under: its interned code (NO_KEY for none, OTHER_REASON past MAX_REASONS). */
  reasonKey(reason: string | null): number {
    if (reason === null) return NO_KEY;
    const known = this.reasons.get(reason);
    if (known !== undefined) return known;
    if (this.reasons.size >= MAX_REASONS) return OTHER_REASON;
    const code = this.reasons.size + 1;
    this.reasons.set(reason, code);
    return code;
  }

  /** Drops the entries with ids up to `edge` (the oldest); returns how many went. */
  dropThrough(edge: number): number {
    let dropped = 0;
    while (this.size > 0 && this.ids[this.head]! <= edge) {
      this.head = (this.head + 1) & this.mask;
      this.size--;
      dropped++;
    }
    return dropped;
  }

  clear(): void {
    this.size = 0;
    this.head = 0;
  }

  /** The position of `id`, or -1. */
  positionOf(id: number): number {
    const at = firstAfter(this.size, (position) => this.idAt(position), id - 1);
    return at < this.size && this.idAt(at) === id ? at : -1;
  }

  private reserve(more: number): void {
    if (this.size + more > this.ids.length) this.grow(this.size + more);
  }

  private put(id: number, at: number, status: number, target: number, reason: number, requestId: number): void {
    const slot = this.slot(this.size++);
    this.ids[slot] = id;
    this.at[slot] = at;
    this.status[slot] = status;
    this.target[slot] = target;
    this.reason[slot] = reason;
    this.requestId[slot] = requestId;
  }

  /** A power-of-two capacity of at least `size`, the held entries moved to its start. */
  private grow(size: number): void {
    let capacity = Math.max(1024, this.ids.length);
    while (capacity < size) capacity *= 2;
    const move = <T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(column: T): T => {
      const next = new (column.constructor as new (n: number) => T)(capacity);
      for (let p = 0; p < this.size; p++) next[p] = column[this.slot(p)]!;
      return next;
    };
    this.ids = move(this.ids);
    this.at = move(this.at);
    this.status = move(this.status);
    this.target = move(this.target);
    this.reason = move(this.reason);
    this.requestId = move(this.requestId);
    this.head = 0;
    this.mask = capacity - 1;
  }
}
