/**
 * How the log reads its stored segments a page at a time, and how a list's status filter tests a
 * stored status: the pieces of `log.ts`'s reads that need none of its state.
 */

/** Segments read at a time when the start-up or a check goes through all of them (a search reads one at a time: `search.ts`). */
export const SEGMENTS_PER_READ = 16;

/**
 * Every row `read` gives from `afterFirstId` on, a page at a time: `read(after)` answers up to
 * SEGMENTS_PER_READ segment rows with `first_id > after`, in order. A segment's blobs are large,
 * so a walk through the log holds one page of them, never the whole log.
 */
export function* segmentRows<Row extends { first_id: number }>(
  read: (after: number) => Row[],
  afterFirstId: number,
): Generator<Row> {
  for (let after = afterFirstId; ;) {
    const rows = read(after);
    yield* rows;
    if (rows.length < SEGMENTS_PER_READ) return;
    after = rows.at(-1)!.first_id;
  }
}

/** A status filter as a test of a stored status (-1: none); null when it filters nothing. */
export function statusTest(filter: string | undefined): ((status: number) => boolean) | null {
  if (!filter) return null;
  // Checked against TRAFFIC_STATUS_FILTER_PATTERN where it came in.
  const status = filter.toLowerCase();
  if (status === 'none' || status === 'incomplete') return (s) => s === -1;
  if (/^[1-5]xx$/.test(status)) {
    const low = Number(status[0]) * 100;
    return (s) => s >= low && s <= low + 99;
  }
  if (/^\d{3}$/.test(status)) {
    const exact = Number(status);
    return (s) => s === exact;
  }
  return null;
}
