/**
 * Text searches of the traffic log: the entries whose URL, request body or response body hold a
 * text, in any case, found by walking the stored segments a slice of time at a time, so that no
 * search holds the listeners (docs/contract/console.md §9: a search read every segment in one
 * turn, 262 ms to 2 s over a full log of 100,000 entries, and the cap goes to 10,000,000).
 *
 * Bounded, not indexed: an index (SQLite FTS5, trigram) would cost every capture a write about
 * three times the text's size, against the log's byte budget, and would still scan for texts
 * under three characters; a walk costs captures nothing and answers exactly what was answered
 * before (JavaScript's `toLowerCase`, shared bodies checked once). A search's matches are kept
 * and brought up to date from where it stopped, so the pages that follow cost no walk.
 *
 * One walk runs at a time, one slice a turn of the event loop: searches for the same text share
 * their walk, others wait their turn (several walks each taking a slice in the same turn would
 * add up). The log keeps capturing between slices: the walk goes on to the newest entry, and
 * what the retention cap drops meanwhile is skipped, never read (the walk reads segments by
 * query, not from the index).
 */
import { setImmediate as nextTurn } from 'node:timers';
import type { SegmentDetails, SegmentSummary } from './codec.js';

/**
 * Work between yields: against 250 ms it leaves room for the rest of a turn (captures, a page of
 * `GET /traffic`, a commit), and a turn between slices costs next to nothing when nothing else waits.
 */
export const SEARCH_SLICE_MS = 25;
/** Shared bodies a walk reads at a time (see `SearchedLog.bodiesFrom`). */
const BODIES_PER_READ = 32;
/** Text searches whose matches are kept (and brought up to date) for the pages that follow. */
const CACHED_SEARCHES = 4;

/** A stored segment, its details read. */
export interface ReadSegment {
  summary: SegmentSummary;
  details: SegmentDetails;
}

/** What a search reads of the log. */
export interface SearchedLog {
  /** Entries at or below it are gone (retention cap, byte budget, clear). */
  droppedThrough(): number;
  /** The newest entry stored (0: none). */
  newestId(): number;
  /** The stored segment holding the first entry after `afterId`, or the first one past it; null when none is. */
  segmentAfter(afterId: number): ReadSegment | null;
  /**
   * The shared bodies from id `from` on, up to `count` of them, in id order: a walk reads the
   * bodies of the entries it goes through mostly in that order, and one query for a few dozen
   * costs about what one for a single body does.
   */
  bodiesFrom(from: number, count: number): { id: number; body: string }[];
}

/** A text search's matches over the entries up to `through` (ids, ascending, from `from` on). */
export interface Search {
  readonly needle: string;
  through: number;
  ids: number[];
  from: number;
  /** Whether each shared body searched holds the text. */
  readonly bodies: Map<number, boolean>;
  /** The segment being walked, held between slices. */
  segment: ReadSegment | null;
  /** Callers waiting for the walk (null: none runs). */
  waiting: { done: Promise<void>; resolve: () => void } | null;
  /**
   * Before the walk goes on past `candidates.through`, the only entries up to it that can hold
   * the text: the matches of a search for a text it contains (see `narrowed`); null when none.
   */
  candidates: { ids: number[]; next: number; through: number } | null;
  /** Whether the walk has begun (a new search looks for candidates once, as it begins). */
  begun: boolean;
}

/**
 * A search narrows a new one when it found at most this share of the entries it went through:
 * checking its matches one by one then costs less than walking them all.
 */
const NARROWS_BELOW = 0.5;

export class TextSearches {
  /** Least recently used first. */
  private readonly searches = new Map<string, Search>();
  /** Walks to run, in the order asked for. */
  private readonly walks: Search[] = [];
  private scheduled = false;

  constructor(
    private readonly log: SearchedLog,
    /** Work per slice (tests set 0: one entry a slice). */
    private readonly sliceMs = SEARCH_SLICE_MS,
  ) {}

  /**
   * The search for `text`, brought up to the newest entry now, in one go. What the log's reads
   * use: after `searched` it is up to date, and this costs nothing more.
   */
  now(text: string): Search {
    const search = this.cached(text);
    this.walk(search, Infinity);
    // A walk waited for ends at its next slice; the segment it held is read again if need be.
    search.segment = null;
    this.settle(search);
    return search;
  }

  /**
   * Brings the search for `text` up to the newest entry a slice at a time; the reads that follow
   * in the same turn find it done. A search already walking is joined, not walked again.
   */
  searched(text: string): Promise<void> {
    const search = this.cached(text);
    if (search.waiting) return search.waiting.done;
    if (!search.segment && Math.max(search.through, this.log.droppedThrough()) >= this.log.newestId()) {
      this.settle(search);
      return Promise.resolve();
    }
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    search.waiting = { done, resolve };
    this.walks.push(search);
    this.schedule();
    return done;
  }

  /** The log was emptied: every search goes, and those waited for are done (the reads find an empty log). */
  clear(): void {
    for (const search of this.searches.values()) this.finish(search);
    this.searches.clear();
    this.walks.length = 0;
  }

  /** The search for `text`, made the most recently used; a new one may push out the least recently used that nobody waits for. */
  private cached(text: string): Search {
    const needle = text.toLowerCase();
    let search = this.searches.get(needle);
    if (search) this.searches.delete(needle);
    else
      search = {
        needle,
        through: this.log.droppedThrough(),
        ids: [],
        from: 0,
        bodies: new Map(),
        segment: null,
        waiting: null,
        candidates: null,
        begun: false,
      };
    this.searches.set(needle, search);
    // A walk being waited for stays: pushing it out would start it again from the oldest entry.
    for (const [oldest, old] of this.searches) {
      if (this.searches.size <= CACHED_SEARCHES) break;
      if (!old.waiting && old !== search) this.searches.delete(oldest);
    }
    return search;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    nextTurn(() => this.slice());
  }

  /** One slice of work on the walks waiting, oldest first; the next slice in a later turn. */
  private slice(): void {
    this.scheduled = false;
    const deadline = performance.now() + this.sliceMs;
    while (this.walks.length > 0) {
      const search = this.walks[0]!;
      // Brought up to date by `now` meanwhile, or cleared.
      if (search.waiting && !this.walk(search, deadline)) break;
      this.walks.shift();
      this.finish(search);
    }
    if (this.walks.length > 0) this.schedule();
  }

  /**
   * Walks the entries after `search.through` up to the newest, until `deadline` (at least one
   * entry a call); whether it got to the newest.
   */
  private walk(search: Search, deadline: number): boolean {
    const log = this.log;
    const needle = search.needle;
    const holds = (value: string | null) => value !== null && value.toLowerCase().includes(needle);
    const bodyHolds = (id: number) => {
      let held = search.bodies.get(id);
      if (held === undefined) {
        for (const body of log.bodiesFrom(id, BODIES_PER_READ))
          if (!search.bodies.has(body.id)) search.bodies.set(body.id, holds(body.body));
        held = search.bodies.get(id);
        // Gone with the entries that used it.
        if (held === undefined) search.bodies.set(id, (held = false));
      }
      return held;
    };
    if (!search.begun) {
      search.begun = true;
      search.candidates = this.narrowed(search);
    }
    const matches = (summary: SegmentSummary, details: SegmentDetails, i: number) => {
      const bodyId = summary.responseBodyId[i]!;
      return (
        holds(details.url(i)) ||
        holds(details.requestBody(i)) ||
        (bodyId > 0 ? bodyHolds(bodyId) : holds(details.responseBody(i)))
      );
    };
    // The candidates first, each read where it is stored (those dropped meanwhile skipped)...
    for (const candidates = search.candidates; candidates;) {
      if (candidates.next >= candidates.ids.length) {
        search.candidates = null;
        search.through = Math.max(search.through, candidates.through);
        search.segment = null;
        break;
      }
      const id = candidates.ids[candidates.next++]!;
      if (id <= log.droppedThrough()) continue;
      if (!search.segment || id < search.segment.summary.firstId || id > search.segment.summary.lastId)
        search.segment = log.segmentAfter(id - 1);
      const segment = search.segment;
      if (
        segment &&
        segment.summary.firstId <= id &&
        matches(segment.summary, segment.details, id - segment.summary.firstId)
      )
        search.ids.push(id);
      if (performance.now() >= deadline) return false;
    }
    // ...then every entry after them.
    for (;;) {
      // Entries the retention cap dropped since are not read.
      search.through = Math.max(search.through, log.droppedThrough());
      if (search.segment && search.segment.summary.lastId <= search.through) search.segment = null;
      if (!search.segment) {
        if (search.through >= log.newestId()) return true;
        search.segment = log.segmentAfter(search.through);
        if (!search.segment) {
          search.through = log.newestId();
          return true;
        }
      }
      const { summary, details } = search.segment;
      for (let i = Math.max(0, search.through - summary.firstId + 1); i < summary.count; i++) {
        if (matches(summary, details, i)) search.ids.push(summary.firstId + i);
        search.through = summary.firstId + i;
        if (performance.now() >= deadline) return false;
      }
    }
  }

  /**
   * Candidates for a search about to walk: the matches of a kept search for a text its own holds
   * (an entry holding "needle" holds "need"), as far as that one went, when they are few enough
   * to be worth reading one by one: what typing a text, a few letters more each time, asks for.
   */
  private narrowed(search: Search): Search['candidates'] {
    const dropped = this.log.droppedThrough();
    let best: Search | null = null;
    for (const other of this.searches.values()) {
      // One checking candidates of its own has not gone through them yet.
      if (
        other === search ||
        other.candidates ||
        !search.needle.includes(other.needle) ||
        other.through <= Math.max(dropped, search.through)
      )
        continue;
      const found = other.ids.length - other.from;
      if (found > NARROWS_BELOW * (other.through - dropped)) continue;
      if (
        !best ||
        other.through > best.through ||
        (other.through === best.through && found < best.ids.length - best.from)
      )
        best = other;
    }
    return best && { ids: best.ids.slice(best.from), next: 0, through: best.through };
  }

  /** The walk is done: drop the segment it held, the matches dropped since, and let its callers go on. */
  private finish(search: Search): void {
    search.segment = null;
    this.settle(search);
    const waiting = search.waiting;
    search.waiting = null;
    waiting?.resolve();
  }

  /** Leaves out the matches the retention cap has dropped. */
  private settle(search: Search): void {
    while (search.from < search.ids.length && search.ids[search.from]! <= this.log.droppedThrough()) search.from++;
    if (search.from > 1024 && search.from * 2 > search.ids.length) {
      search.ids = search.ids.slice(search.from);
      search.from = 0;
    }
  }
}
