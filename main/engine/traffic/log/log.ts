/**
 * The traffic log: exchanges are encoded as they are captured (`capture`), written one segment per
 * flush (`commit`, see `codec.ts`), and the oldest go once the retention cap is passed.
 * Reads are pages of a filtered, id-ordered set, worked out on the in-memory index
 * (`entry-index.ts`); rows and entries read the segments they need, a few kept decoded; text
 * searches walk them a slice at a time (`search.ts`).
 *
 * Trimming deletes the segments wholly past the cap; one that straddles it stays, and its older
 * entries are hidden (`dropped_through` in `traffic_state`), never shown again. Beside the entry
 * cap, a byte budget drops the oldest segments whole (`segment-sizes.ts`).
 *
 * What capture masked is held in memory for the newest entries and put back on reads
 * (`held.ts`): the file never holds it (docs/contract/console.md §9).
 */
import { TRAFFIC_TARGETS, type TrafficFilter, type TrafficSummary } from '../../api/traffic-types.js';
import { reasonAsWritten } from '../../http/reason-as-written.js';
import { transactor, type SqliteDatabase, type Transact } from '../../store/database.js';
import { DEFAULT_USE_AHEAD, TrafficBodies, type BodyUses } from './bodies.js';
import { PART, SegmentDetails, SegmentSummary, SegmentWriter, type NewTrafficEntry } from './codec.js';
import { firstAfter, TrafficIndex, OTHER_REASON, requestIdKey } from './entry-index.js';
import { parseHeaderBlock } from './header-block.js';
import { HeldSecrets, spliceBack, withHeld, type HeldParts } from './held.js';
import { SEARCH_SLICE_MS, TextSearches, type ReadSegment } from './search.js';
import { segmentRows, SEGMENTS_PER_READ, statusTest } from './segment-rows.js';
import { SegmentSizes } from './segment-sizes.js';
import type { Committed, StoredTrafficEntry, TrafficCursor, TrafficLogStore } from './types.js';

export { segmentRows, SEGMENTS_PER_READ } from './segment-rows.js';

/** Decoded segments kept for reads (a page, its neighbours, an entry opened from them). */
const CACHED_SEGMENTS = 16;
interface StoredSegment {
  summary: SegmentSummary;
  details?: SegmentDetails;
}

/** The ids of a filtered set, ascending. */
interface Selection {
  total: number;
  idAt(k: number): number;
}

export class TrafficLog implements TrafficLogStore {
  private readonly index = new TrafficIndex();
  private readonly writer = new SegmentWriter();
  private readonly bodies: TrafficBodies;
  private uses: BodyUses = new Set();
  /** Bytes the stored log may take, about; the oldest segments go beyond it. */
  byteBudget = Infinity;
  private readonly sizes = new SegmentSizes();
  private readonly held = new HeldSecrets();
  /**
   * What the entries not yet written hold (`held.ts`): their places in the segment and their parts,
   * side by side (a pair per entry would be garbage the collector moves to the old generation).
   */
  private readonly heldAt: number[] = [];
  private readonly heldParts: HeldParts[] = [];
  private nextId: number;
  private droppedThrough: number;
  /** Decoded segments by first id, least recently used first. */
  private readonly segments = new Map<number, StoredSegment>();
  /** The one `segmentOf` gave last (the Map's last): a page of rows asks for it again and again. */
  private recent: StoredSegment | null = null;
  private readonly searches: TextSearches;
  private readonly transact: Transact;
  private readonly insertSegment;
  private readonly dropSegments;
  private readonly dropAll;
  private readonly saveState;
  private readonly segmentHolding;
  private readonly detailOf;
  private readonly firstIdHolding;
  private readonly segmentsAfter;
  private readonly segmentFrom;
  private readonly bodiesFrom;

  /**
   * `bodyUseAhead`: see `DEFAULT_USE_AHEAD` (tests set 0 to see bodies go with their last entry);
   * `searchSliceMs`: see `SEARCH_SLICE_MS` (tests set 0 to see a search's walk meet captures and trims).
   */
  constructor(
    db: SqliteDatabase,
    {
      bodyUseAhead = DEFAULT_USE_AHEAD,
      searchSliceMs = SEARCH_SLICE_MS,
    }: { bodyUseAhead?: number; searchSliceMs?: number } = {},
  ) {
    this.insertSegment = db.prepare<[number, number, Buffer, Buffer]>(
      'INSERT INTO traffic_segments (first_id, last_id, summary, detail) VALUES (?, ?, ?, ?)',
    );
    // By first id too, so that SQLite seeks to them instead of reading every segment's row.
    this.dropSegments = db.prepare<[number, number]>(
      'DELETE FROM traffic_segments WHERE first_id <= ? AND last_id <= ?',
    );
    this.dropAll = db.prepare('DELETE FROM traffic_segments');
    this.saveState = db.prepare<[number, number]>('UPDATE traffic_state SET next_id = ?, dropped_through = ?');
    this.segmentHolding = db.prepare<[number], { first_id: number; last_id: number; summary: Buffer }>(
      'SELECT first_id, last_id, summary FROM traffic_segments WHERE first_id <= ? ORDER BY first_id DESC LIMIT 1',
    );
    this.detailOf = db.prepare<[number], Buffer>('SELECT detail FROM traffic_segments WHERE first_id = ?').pluck();
    this.firstIdHolding = db
      .prepare<[number], number | null>('SELECT MAX(first_id) FROM traffic_segments WHERE first_id <= ?')
      .pluck();
    // length() of a blob reads its header, not the blob.
    this.segmentsAfter = db.prepare<
      [number, number],
      { first_id: number; summary: Buffer; detail: Buffer | null; bytes: number }
    >(
      'SELECT first_id, summary, CASE WHEN ? THEN detail END AS detail, length(summary) + length(detail) AS bytes FROM traffic_segments WHERE first_id > ? ORDER BY first_id LIMIT ' +
        SEGMENTS_PER_READ,
    );
    this.bodies = new TrafficBodies(db, bodyUseAhead);
    this.segmentFrom = db.prepare<[number], { first_id: number; summary: Buffer; detail: Buffer }>(
      'SELECT first_id, summary, detail FROM traffic_segments WHERE first_id >= ? ORDER BY first_id LIMIT 1',
    );
    this.bodiesFrom = db.prepare<[number, number], { id: number; body: string }>(
      'SELECT id, body FROM traffic_bodies WHERE id >= ? ORDER BY id LIMIT ?',
    );
    this.searches = new TextSearches(
      {
        droppedThrough: () => this.droppedThrough,
        newestId: () => this.index.newestId,
        segmentAfter: (afterId) => this.segmentAfter(afterId),
        bodiesFrom: (from, count) => this.bodiesFrom.all(from, count),
      },
      searchSliceMs,
    );
    this.transact = transactor(db);
    const state = db.prepare('SELECT next_id, dropped_through FROM traffic_state').get() as {
      next_id: number;
      dropped_through: number;
    };
    this.nextId = state.next_id;
    this.droppedThrough = state.dropped_through;
    this.eachSegment(0, false, (segment, bytes) => {
      this.index.addSegment(segment.summary, this.droppedThrough);
      this.sizes.add(segment.summary.lastId, bytes);
    });
  }

  /**
   * Encodes an exchange into the segment the next `commit` writes. Costs no SQL: capture calls it
   * on every request. Answers the id the entry gets when it is written (commits give ids in
   * capture order), so that what refers to the exchange (a player's violations) can name it now.
   */
  capture(entry: NewTrafficEntry): number {
    const id = this.nextCaptureId;
    if (entry.held) {
      this.heldAt.push(this.writer.count);
      this.heldParts.push(entry.held);
    }
    this.writer.add(
      entry,
      this.bodies.idOf(entry.url, entry.responseBody, this.uses),
      this.index.reasonKey(entry.reason),
      requestIdKey(entry.requestId),
    );
    return id;
  }

  get nextCaptureId(): number {
    return this.nextId + this.writer.count;
  }

  /** Entries captured and not yet written. */
  get stagedEntries(): number {
    return this.writer.count;
  }

  /** About how many bytes the entries not yet written take. */
  get stagedBytes(): number {
    return this.writer.bytes;
  }

  /** About how many bytes the stored log takes (what `byteBudget` bounds). */
  get storedBytes(): number {
    return this.sizes.total;
  }

  /**
   * Writes what was captured as one segment and trims the log to its newest `keep` entries, in
   * one transaction. Returns how many entries were written and how many old ones went, and, when
   * asked, their summaries (an event nobody listens to needs none: without them a write reads
   * nothing back). What fails to be written is dropped (and its ids given again).
   */
  commit(keep: number, withSummaries: boolean): Committed {
    const count = this.writer.count;
    if (count === 0) return { count: 0, lastId: 0, dropped: 0, stored: [] };
    const first = this.nextId;
    const last = first + count - 1;
    const { summary, detail } = this.writer.encode();
    const bytes = summary.byteLength + detail.byteLength + this.bodies.freshChars;
    const uses = this.uses;
    this.uses = new Set();
    let edge: number;
    try {
      edge = this.write(() => {
        this.bodies.storeFresh();
        this.insertSegment.run(first, last, summary, detail);
        this.bodies.used(uses, last, keep);
        const trimmedTo = this.trimTo(keep, last, bytes);
        this.saveState.run(last + 1, trimmedTo);
        return trimmedTo;
      });
      this.nextId = last + 1;
      this.index.addWritten(first, this.writer);
      this.sizes.add(last, bytes);
      for (let i = 0; i < this.heldAt.length; i++) this.held.hold(first + this.heldAt[i]!, this.heldParts[i]!);
    } finally {
      this.writer.reset();
      this.heldAt.length = 0;
      this.heldParts.length = 0;
    }
    const stored: TrafficSummary[] = [];
    if (withSummaries) {
      const segment = new SegmentSummary(first, summary);
      for (let i = 0; i < count; i++) stored.push(segment.summary(i));
    }
    return { count, lastId: last, dropped: this.droppedTo(edge), stored };
  }

  /** Captures and commits `entries` at once (imports, tests): the entries with their ids, and how many old ones went. */
  append(entries: readonly NewTrafficEntry[], keep: number): { stored: TrafficSummary[]; dropped: number } {
    for (const entry of entries) this.capture(entry);
    const { stored, dropped } = this.commit(keep, true);
    return { stored, dropped };
  }

  /**
   * Drops the oldest entries beyond `keep`; returns how many went. Entries captured and not yet
   * written are written first: they may share a body trimming would otherwise take.
   */
  retain(keep: number): number {
    if (this.writer.count > 0) return this.commit(keep, false).dropped;
    const edge = this.write(() => {
      const trimmedTo = this.trimTo(keep, this.index.newestId, 0);
      this.saveState.run(this.nextId, trimmedTo);
      return trimmedTo;
    });
    return this.droppedTo(edge);
  }

  /**
   * Empties the log, with what was captured and not yet written; ids go on from where they were,
   * past those `capture` promised to the entries not written: no later entry takes their id.
   */
  clear(): number {
    this.nextId += this.writer.count;
    this.writer.reset();
    this.heldAt.length = 0;
    this.heldParts.length = 0;
    this.uses = new Set();
    const edge = this.nextId - 1;
    this.write(() => {
      this.bodies.clear();
      this.dropAll.run();
      this.saveState.run(this.nextId, edge);
    });
    const cleared = this.index.size;
    this.index.clear();
    this.sizes.clear();
    this.held.clear();
    this.droppedThrough = edge;
    this.segments.clear();
    this.recent = null;
    this.searches.clear();
    return cleared;
  }

  /**
   * One entry as stored (secrets masked); with `reveal`, with what capture masked put back while
   * it is held. Masked by default: a name-based mask on reading would miss a secret capture found
   * by value (the admin token in a HAR's header value).
   */
  get(id: number, reveal = false): StoredTrafficEntry | undefined {
    return this.index.positionOf(id) === -1 ? undefined : this.entryOf(id, reveal);
  }

  /** Full entries from `since` on, oldest first. */
  entries(filter: TrafficFilter, since: TrafficCursor | undefined, limit: number): StoredTrafficEntry[] {
    return this.entryIds(filter, since, limit).map((id) => this.entryOf(id));
  }

  /** The ids of `entries` (read from the index alone): a caller with a byte budget reads them one by one. */
  entryIds(filter: TrafficFilter, since: TrafficCursor | undefined, limit: number): number[] {
    const selection = this.select(filter);
    const ids: number[] = [];
    if (since !== undefined && 'fromAt' in since) {
      for (let k = 0; k < selection.total && ids.length < limit; k++) {
        const id = selection.idAt(k);
        if (this.index.at[this.index.slot(this.index.positionOf(id))]! >= since.fromAt) ids.push(id);
      }
    } else {
      const start = since === undefined ? 0 : firstAfter(selection.total, selection.idAt, since.afterId);
      for (let k = start; k < selection.total && ids.length < limit; k++) ids.push(selection.idAt(k));
    }
    return ids;
  }

  /** The newest `limit` entries of the filtered set, oldest first (what an export takes). */
  latest(filter: TrafficFilter, limit: number): StoredTrafficEntry[] {
    return this.latestIds(filter, limit).map((id) => this.entryOf(id));
  }

  /** The ids of the newest `limit` entries of the filtered set, oldest first. */
  latestIds(filter: TrafficFilter, limit: number): number[] {
    const selection = this.select(filter);
    const ids: number[] = [];
    for (let k = Math.max(0, selection.total - limit); k < selection.total; k++) ids.push(selection.idAt(k));
    return ids;
  }

  /**
   * Where an entry stands in the filtered set (0-based), or null when the set does not hold it
   * (filtered out, or dropped by the retention cap). Lets a list keep an entry in place while the
   * oldest entries go.
   */
  locate(filter: TrafficFilter, id: number): number | null {
    const selection = this.select(filter);
    const k = firstAfter(selection.total, selection.idAt, id - 1);
    return k < selection.total && selection.idAt(k) === id ? k : null;
  }

  /** A page of summaries of the filtered set, oldest first, and the size of the set. */
  page(filter: TrafficFilter, offset: number, limit: number): { total: number; rows: TrafficSummary[] } {
    const selection = this.select(filter);
    const rows: TrafficSummary[] = [];
    for (let k = offset; k < Math.min(selection.total, offset + limit); k++) {
      const id = selection.idAt(k);
      const segment = this.segmentOf(id);
      rows.push(segment.summary.summary(id - segment.summary.firstId));
    }
    return { total: selection.total, rows };
  }

  /**
   * Brings the text search of `filter` up to the newest entry a slice of time at a time, the
   * listeners answering in between (see `search.ts`): a read with the filter in the same turn
   * then walks no segment. Without it a read searches in one go.
   */
  searched(filter: TrafficFilter): Promise<void> {
    return filter.text ? this.searches.searched(filter.text) : Promise.resolve();
  }

  /** The filtered set's ids: the index answers target, status, reason and request id; a text search keeps its matches. */
  private select(filter: TrafficFilter): Selection {
    const index = this.index;
    const target = filter.target ? TRAFFIC_TARGETS.indexOf(filter.target) : null;
    const status = statusTest(filter.status);
    // As captured: `?reason=load+queueCompleted` unencoded arrives with a space.
    const reasonText = filter.reason ? reasonAsWritten(filter.reason) : null;
    const reason = reasonText === null ? null : index.reasonCode(reasonText);
    const requestId = filter.requestId ? requestIdKey(filter.requestId) : null;
    if (target === null && status === null && reason === null && requestId === null && !filter.text) {
      return { total: index.size, idAt: (k) => index.idAt(k) };
    }
    const matches = (position: number): boolean => {
      const slot = index.slot(position);
      if (target !== null && index.target[slot] !== target) return false;
      if (status !== null && !status(index.status[slot]!)) return false;
      if (reason !== null) {
        const code = index.reason[slot]!;
        if (code !== reason) return false;
        if (code === OTHER_REASON && this.part(index.ids[slot]!, PART.reason) !== reasonText) return false;
      }
      if (requestId !== null) {
        if (index.requestId[slot] !== requestId) return false;
        if (this.part(index.ids[slot]!, PART.requestId) !== filter.requestId) return false;
      }
      return true;
    };
    const ids: number[] = [];
    if (filter.text) {
      const search = this.searches.now(filter.text);
      // Every match from `from` on is held by the index (those dropped are before `from`).
      if (target === null && status === null && reason === null && requestId === null) {
        const { ids: found, from } = search;
        return { total: found.length - from, idAt: (k) => found[from + k]! };
      }
      // Ids are consecutive in the index (an id's position is its distance from the oldest): a
      // search matching most of 10,000,000 entries is not looked up one by one, in one turn.
      const oldest = index.size === 0 ? 0 : index.idAt(0);
      const consecutive = index.newestId - oldest === index.size - 1;
      for (let k = search.from; k < search.ids.length; k++) {
        const id = search.ids[k]!;
        const position = consecutive ? id - oldest : index.positionOf(id);
        if (position >= 0 && position < index.size && matches(position)) ids.push(id);
      }
    } else {
      for (let position = 0; position < index.size; position++) if (matches(position)) ids.push(index.idAt(position));
    }
    return { total: ids.length, idAt: (k) => ids[k]! };
  }

  /** A string part of an entry's summary (to check a candidate the index cannot tell apart). */
  private part(id: number, part: number): string | null {
    const segment = this.segmentOf(id).summary;
    return segment.part(id - segment.firstId, part);
  }

  /** Goes through the stored segments holding entries after `afterId`, in order (their details too when asked), with their stored size. */
  private eachSegment(afterId: number, details: boolean, visit: (segment: StoredSegment, bytes: number) => void): void {
    // The segment holding `afterId + 1` may start before it.
    const from = (this.firstIdHolding.get(afterId + 1) ?? 1) - 1;
    for (const row of segmentRows((after) => this.segmentsAfter.all(details ? 1 : 0, after), from)) {
      const summary = new SegmentSummary(row.first_id, row.summary);
      if (summary.lastId > afterId)
        visit({ summary, details: row.detail ? new SegmentDetails(row.detail) : undefined }, row.bytes);
    }
  }

  /** The stored segment holding the first entry after `afterId`, or the first one past it (with its details); null when none does. */
  private segmentAfter(afterId: number): ReadSegment | null {
    let row = this.segmentFrom.get(this.firstIdHolding.get(afterId + 1) ?? 0);
    let summary = row && new SegmentSummary(row.first_id, row.summary);
    // Ids are consecutive, so it holds the entry; were there a gap, the next one would.
    if (summary && summary.lastId <= afterId) {
      row = this.segmentFrom.get(afterId + 1);
      summary = row && new SegmentSummary(row.first_id, row.summary);
    }
    return row && summary ? { summary, details: new SegmentDetails(row.detail) } : null;
  }

  /** The stored segment holding an entry the index holds. */
  private segmentOf(id: number): StoredSegment {
    const recent = this.recent;
    if (recent && recent.summary.firstId <= id && id <= recent.summary.lastId) return recent;
    for (const [first, segment] of this.segments) {
      if (first <= id && id <= segment.summary.lastId) {
        this.segments.delete(first);
        this.segments.set(first, segment);
        return (this.recent = segment);
      }
    }
    const row = this.segmentHolding.get(id);
    if (!row || row.last_id < id) throw new Error(`traffic entry ${id} is in the index but in no stored segment`);
    const segment = { summary: new SegmentSummary(row.first_id, row.summary) };
    this.keep(row.first_id, segment);
    return segment;
  }

  private keep(first: number, segment: StoredSegment): void {
    this.segments.set(first, segment);
    this.recent = segment;
    if (this.segments.size > CACHED_SEGMENTS) this.segments.delete(this.segments.keys().next().value!);
  }

  private entryOf(id: number, reveal = false): StoredTrafficEntry {
    const segment = this.segmentOf(id);
    segment.details ??= new SegmentDetails(this.detailOf.get(segment.summary.firstId)!);
    const i = id - segment.summary.firstId;
    const bodyId = segment.summary.responseBodyId[i]!;
    const detail = segment.details.detail(i);
    const notes = segment.details.notes(i);
    const kept = this.held.get(id);
    const held = reveal ? kept : undefined;
    const responseBody = bodyId > 0 ? this.bodies.text(bodyId) : detail.responseBody;
    return {
      ...segment.summary.summary(i),
      url: held?.url ? spliceBack(detail.url, held.url) : detail.url,
      requestHeaders: withHeld(parseHeaderBlock(detail.requestHeaders), held?.requestHeaders),
      requestBody:
        held?.requestBody && detail.requestBody !== null
          ? spliceBack(detail.requestBody, held.requestBody)
          : detail.requestBody,
      responseHeaders: withHeld(parseHeaderBlock(detail.responseHeaders), held?.responseHeaders),
      responseBody:
        held?.responseBody && responseBody !== null ? spliceBack(responseBody, held.responseBody) : responseBody,
      cut: notes?.cut ?? null,
      secretsMasked: notes?.masked === true && kept === undefined,
    };
  }

  /**
   * Deletes the segments wholly at or below the new edge: `newest` − `keep`, or further when the
   * stored segments and `coming` bytes (the segment being written) pass the byte budget. Returns the edge.
   */
  private trimTo(keep: number, newest: number, coming: number): number {
    const edge = Math.max(newest - keep, this.sizes.edgeFor(this.byteBudget, coming));
    if (edge <= this.droppedThrough) return this.droppedThrough;
    this.dropSegments.run(edge, edge);
    this.bodies.trim(edge);
    return edge;
  }

  /** After a write: the index, the sizes and the held secrets let go of what the write trimmed; how many entries went. */
  private droppedTo(edge: number): number {
    this.droppedThrough = edge;
    this.sizes.dropThrough(edge);
    this.held.dropThrough(edge);
    return this.index.dropThrough(edge);
  }

  private write<T>(work: () => T): T {
    try {
      return this.transact(work);
    } catch (error) {
      this.bodies.forget();
      throw error;
    }
  }
}
