/**
 * The traffic log as its users see it: the recorder writes through it, the commands and a bundle's
 * export read through it. They depend on this interface, never on how the log stores entries.
 */
import type { TrafficCut, TrafficEntry, TrafficFilter, TrafficSummary } from '../../api/traffic-types.js';
import type { NewTrafficEntry } from './codec.js';

export type { NewTrafficEntry } from './codec.js';
/**
 * An entry as the log reads it: what the API serves before redaction, without the transitions and
 * violations it caused, with the secrets capture masked put back while memory holds them (see `held.ts`).
 */
export type StoredTrafficEntry = Omit<
  TrafficEntry,
  'redacted' | 'transitions' | 'violations' | 'revealed' | 'revealNote' | 'cut'
> & {
  cut?: TrafficCut | null;
  /** Secrets capture masked are still masked in it: memory no longer holds them, so nothing can reveal them. */
  secretsMasked?: boolean;
};

/** What a `commit` wrote: how many entries, how many old ones went, and the entries' summaries when asked for. */
export interface Committed {
  count: number;
  /** The newest id written (0: none). */
  lastId: number;
  dropped: number;
  stored: TrafficSummary[];
}

/** Where a read starts: after an entry (by id), or at an engine time. */
export type TrafficCursor = { afterId: number } | { fromAt: number };

export interface TrafficLogStore {
  /**
   * Encodes an exchange into what the next `commit` writes; costs no SQL (capture calls it on every
   * request). Answers the id the entry gets once written (unless that write fails).
   */
  capture(entry: NewTrafficEntry): number;
  /** The id the next `capture` answers. */
  readonly nextCaptureId: number;
  /** Entries captured and not yet written. */
  readonly stagedEntries: number;
  /** About how many bytes the entries not yet written take. */
  readonly stagedBytes: number;
  /**
   * Bytes the stored log may take, about (its segments and the bodies they brought): beyond it the
   * oldest segments go at the next commit or retain, the newest always stays.
   */
  byteBudget: number;
  /** Writes what was captured and trims the log to its newest `keep` entries (and to its byte budget), in one transaction. */
  commit(keep: number, withSummaries: boolean): Committed;
  /** Captures and commits `entries` at once (imports, tests). */
  append(entries: readonly NewTrafficEntry[], keep: number): { stored: TrafficSummary[]; dropped: number };
  /** Drops the oldest entries beyond `keep`; returns how many went. */
  retain(keep: number): number;
  /** Empties the log; ids go on from where they were. Returns how many entries went. */
  clear(): number;
  /** Masked as stored; `reveal` puts back what capture masked, while it is held. */
  get(id: number, reveal?: boolean): StoredTrafficEntry | undefined;
  /** Full entries of the filtered set from `since` on, oldest first. */
  entries(filter: TrafficFilter, since: TrafficCursor | undefined, limit: number): StoredTrafficEntry[];
  /** The ids `entries` would read, from the index alone. */
  entryIds(filter: TrafficFilter, since: TrafficCursor | undefined, limit: number): number[];
  /** The newest `limit` entries of the filtered set, oldest first (what an export takes). */
  latest(filter: TrafficFilter, limit: number): StoredTrafficEntry[];
  /** The ids of the newest `limit` entries of the filtered set, oldest first: an export reads them a few at a time. */
  latestIds(filter: TrafficFilter, limit: number): number[];
  /** About how many bytes the stored log takes (what `byteBudget` bounds). */
  readonly storedBytes: number;
  /**
   * Brings the filter's text search up to the newest entry a slice of time at a time, the
   * listeners answering in between: the reads with the filter that follow in the same turn walk
   * nothing. Without it they search the whole log in one go (docs/contract/console.md §9).
   */
  searched(filter: TrafficFilter): Promise<void>;
  /** Where an entry stands in the filtered set (0-based), or null when the set does not hold it. */
  locate(filter: TrafficFilter, id: number): number | null;
  /** A page of summaries of the filtered set, oldest first, and the size of the set. */
  page(filter: TrafficFilter, offset: number, limit: number): { total: number; rows: TrafficSummary[] };
}
