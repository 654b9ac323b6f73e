/**
 * The stored size of each segment, oldest first, so that the log keeps to a byte budget beside its
 * entry cap (docs/contract/console.md §9): 5,000 requests with a 15 KB header each must not grow
 * the file by 75 MB because they are few entries. A segment's size is its two blobs and the shared
 * bodies it brought (a body outliving its segment is no longer counted: near enough to bound the
 * file, as `SegmentWriter.bytes` is to bound a flush).
 */
export class SegmentSizes {
  private lastIds: number[] = [];
  private sizes: number[] = [];
  /** Index of the oldest held segment (dropped ones are left behind it until compacted). */
  private head = 0;
  total = 0;

  /** Adds the newest segment. */
  add(lastId: number, bytes: number): void {
    this.lastIds.push(lastId);
    this.sizes.push(bytes);
    this.total += bytes;
  }

  /**
   * The newest id trimming must drop through so that the segments held, with `coming` bytes more
   * (a segment being written, which always stays), fit in `budget`; 0 when they fit already. The
   * newest held segment stays when nothing is coming.
   */
  edgeFor(budget: number, coming: number): number {
    let total = this.total + coming;
    if (total <= budget) return 0;
    let edge = 0;
    const keepLast = coming > 0 ? 0 : 1;
    for (let k = this.head; k < this.lastIds.length - keepLast && total > budget; k++) {
      total -= this.sizes[k]!;
      edge = this.lastIds[k]!;
    }
    return edge;
  }

  /** Forgets the segments wholly at or below `edge` (deleted by trimming). */
  dropThrough(edge: number): void {
    while (this.head < this.lastIds.length && this.lastIds[this.head]! <= edge) {
      this.total -= this.sizes[this.head]!;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.lastIds.length) {
      this.lastIds = this.lastIds.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }

  clear(): void {
    this.lastIds = [];
    this.sizes = [];
    this.head = 0;
    this.total = 0;
  }
}
