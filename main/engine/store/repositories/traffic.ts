/**
 * The traffic log's rows. Inserts come in batches (one transaction per flush); reads are pages of
 * a filtered, id-ordered set; the oldest rows go once the retention cap is passed.
 */
import type { FaultHit } from '../../api/fault-types.js';
import type { TrafficEntry, TrafficFilter, TrafficOutcome, TrafficSummary, TrafficTarget } from '../../api/traffic-types.js';
import type { Statement } from 'better-sqlite3';
import { transactor, type SqliteDatabase, type Transact } from '../database.js';
import { reasonAsWritten } from '../../cloud-queue/reasons.js';
import { parseHeaderBlock, type HeaderBlock } from './header-block.js';
import { DEFAULT_USE_AHEAD, TrafficBodies, type BodyUses } from './traffic-bodies.js';

/** An entry before it has an id, with its headers as stored: header blocks (see `header-block.ts`). */
export type NewTrafficEntry = Omit<TrafficEntry, 'id' | 'redacted' | 'transitions' | 'requestHeaders' | 'responseHeaders'> & {
  requestHeaders: HeaderBlock;
  responseHeaders: HeaderBlock;
};

interface Row {
  id: number;
  target: string;
  at: number;
  wall_at: number;
  method: string;
  url: string;
  path: string;
  reason: string | null;
  status: number | null;
  latency_ms: number | null;
  retry: number | null;
  fault: string | null;
  player_id: string | null;
  request_id: string | null;
  outcome: string;
  request_headers: string;
  request_body: string | null;
  response_headers: string;
  response_body: string | null;
}

/** A row's response body: its own, or the shared one it points at (see `TrafficBodies`). */
const RESPONSE_BODY = 'COALESCE(response_body, (SELECT shared.body FROM traffic_bodies shared WHERE shared.id = traffic.response_body_id))';

const SUMMARY_COLUMNS = 'id, target, at, wall_at, method, path, reason, status, latency_ms, retry, fault, player_id, request_id, outcome';
const ENTRY_COLUMNS = `${SUMMARY_COLUMNS}, url, request_headers, request_body, response_headers, ${RESPONSE_BODY} AS response_body`;

function toSummary(row: Row): TrafficSummary {
  return {
    id: row.id,
    target: row.target as TrafficTarget,
    at: row.at,
    wallAt: row.wall_at,
    method: row.method,
    path: row.path,
    reason: row.reason,
    status: row.status,
    latencyMs: row.latency_ms,
    retry: row.retry,
    fault: row.fault ? (JSON.parse(row.fault) as FaultHit) : null,
    playerId: row.player_id,
    requestId: row.request_id,
    outcome: row.outcome as TrafficOutcome,
  };
}

export type StoredTrafficEntry = Omit<TrafficEntry, 'redacted' | 'transitions'>;

function toEntry(row: Row): StoredTrafficEntry {
  return {
    ...toSummary(row),
    url: row.url,
    requestHeaders: parseHeaderBlock(row.request_headers),
    requestBody: row.request_body,
    responseHeaders: parseHeaderBlock(row.response_headers),
    responseBody: row.response_body,
  };
}

/** Where a read starts: after an entry (by id), or at an engine time. */
export type TrafficCursor = { afterId: number } | { fromAt: number };

/** SQL for a filter, with its parameters. */
function where(filter: TrafficFilter, since?: TrafficCursor): { sql: string; params: (string | number)[] } {
  const clauses: string[] = [];
  const params: (string | number)[] = [];
  if (since !== undefined) {
    clauses.push('afterId' in since ? 'id > ?' : 'at >= ?');
    params.push('afterId' in since ? since.afterId : since.fromAt);
  }
  if (filter.target) {
    clauses.push('target = ?');
    params.push(filter.target);
  }
  if (filter.reason) {
    clauses.push('reason = ?');
    // As captured: `?reason=load+queueCompleted` unencoded arrives with a space.
    params.push(reasonAsWritten(filter.reason));
  }
  if (filter.status) {
    // Checked against TRAFFIC_STATUS_FILTER_PATTERN where it came in.
    const status = filter.status.toLowerCase();
    if (status === 'none') clauses.push('status IS NULL');
    else if (/^[1-5]xx$/.test(status)) {
      clauses.push('status BETWEEN ? AND ?');
      params.push(Number(status[0]) * 100, Number(status[0]) * 100 + 99);
    } else if (/^\d{3}$/.test(status)) {
      clauses.push('status = ?');
      params.push(Number(status));
    }
  }
  if (filter.requestId) {
    clauses.push('request_id = ?');
    params.push(filter.requestId);
  }
  if (filter.text) {
    // The URL, not just the path: a query (`itemId=item-7`, `reason=`) is what people look for.
    clauses.push(`(url LIKE ? ESCAPE '\\' OR request_body LIKE ? ESCAPE '\\' OR ${RESPONSE_BODY} LIKE ? ESCAPE '\\')`);
    const like = `%${filter.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    params.push(like, like, like);
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

const COLUMNS = 'target, at, wall_at, method, url, path, reason, status, latency_ms, retry, fault, player_id, request_id, outcome, request_headers, request_body, response_headers, response_body, response_body_id';
const WIDTH = COLUMNS.split(',').length;
const ROW = `(${Array(WIDTH).fill('?').join(', ')})`;
/** Rows per INSERT: one statement per row costs more than the row itself. */
const ROWS_PER_INSERT = 32;

/** Writes an entry's columns into `args` from `at` on, in COLUMNS order; `bodyId`: its shared response body. */
function bind(args: unknown[], at: number, e: NewTrafficEntry, bodyId: number | null): void {
  args[at] = e.target;
  args[at + 1] = e.at;
  args[at + 2] = e.wallAt;
  args[at + 3] = e.method;
  args[at + 4] = e.url;
  args[at + 5] = e.path;
  args[at + 6] = e.reason;
  args[at + 7] = e.status;
  args[at + 8] = e.latencyMs;
  args[at + 9] = e.retry;
  args[at + 10] = e.fault ? JSON.stringify(e.fault) : null;
  args[at + 11] = e.playerId;
  args[at + 12] = e.requestId;
  args[at + 13] = e.outcome;
  args[at + 14] = e.requestHeaders;
  args[at + 15] = e.requestBody;
  args[at + 16] = e.responseHeaders;
  args[at + 17] = bodyId === null ? e.responseBody : null;
  args[at + 18] = bodyId;
}

const summaryOf = (e: NewTrafficEntry, id: number): TrafficSummary => ({
  id,
  target: e.target,
  at: e.at,
  wallAt: e.wallAt,
  method: e.method,
  path: e.path,
  reason: e.reason,
  status: e.status,
  latencyMs: e.latencyMs,
  retry: e.retry,
  fault: e.fault,
  playerId: e.playerId,
  requestId: e.requestId,
  outcome: e.outcome,
});

export class TrafficRepository {
  private readonly one;
  /** INSERT statements by row count, prepared when first needed. */
  private readonly inserts: Statement<unknown[]>[] = [];
  private readonly newest;
  private readonly dropUpTo;
  private readonly dropAll;
  private readonly bodies: TrafficBodies;
  private readonly transact: Transact;

  /** `bodyUseAhead`: see `DEFAULT_USE_AHEAD` (tests set 0 to see bodies go with their last row). */
  constructor(
    private readonly db: SqliteDatabase,
    { bodyUseAhead = DEFAULT_USE_AHEAD }: { bodyUseAhead?: number } = {},
  ) {
    this.one = db.prepare<[number], Row>(`SELECT ${ENTRY_COLUMNS} FROM traffic WHERE id = ?`);
    this.newest = db.prepare<[], { id: number | null }>('SELECT MAX(id) AS id FROM traffic');
    this.dropUpTo = db.prepare<[number]>('DELETE FROM traffic WHERE id <= ?');
    this.dropAll = db.prepare('DELETE FROM traffic');
    this.bodies = new TrafficBodies(db, bodyUseAhead);
    this.transact = transactor(db);
  }

  /**
   * Stores a batch and trims the log to its newest `keep` rows, in one transaction. Returns the
   * entries with their ids and how many old rows went.
   */
  append(entries: readonly NewTrafficEntry[], keep: number): { stored: TrafficSummary[]; dropped: number } {
    return this.write(() => {
      const stored: TrafficSummary[] = new Array(entries.length);
      const uses: BodyUses = new Set();
      let lastRow = 0;
      // One statement's rows get consecutive ids, ending at its lastInsertRowid.
      for (let from = 0; from < entries.length; from += ROWS_PER_INSERT) {
        const rows = Math.min(ROWS_PER_INSERT, entries.length - from);
        const args: unknown[] = new Array(rows * WIDTH);
        for (let j = 0; j < rows; j++) {
          const entry = entries[from + j]!;
          bind(args, j * WIDTH, entry, this.bodies.idOf(entry.url, entry.responseBody, uses));
        }
        lastRow = Number(this.insert(rows).run(...args).lastInsertRowid);
        for (let j = 0; j < rows; j++) stored[from + j] = summaryOf(entries[from + j]!, lastRow - rows + 1 + j);
      }
      this.bodies.used(uses, lastRow, keep);
      return { stored, dropped: this.trim(keep, lastRow) };
    });
  }

  /** Called at capture with a response body that will be written: see `TrafficBodies.renew`. */
  renewBody(url: string, body: string | null): void {
    this.bodies.renew(url, body);
  }

  /** Drops the oldest rows beyond `keep`; returns how many went. */
  retain(keep: number): number {
    return this.write(() => this.trim(keep));
  }

  clear(): number {
    return this.write(() => {
      this.bodies.clear();
      return this.dropAll.run().changes;
    });
  }

  private insert(rows: number): Statement<unknown[]> {
    return (this.inserts[rows] ??= this.db.prepare<unknown[]>(`INSERT INTO traffic (${COLUMNS}) VALUES ${Array(rows).fill(ROW).join(', ')}`));
  }

  /** `newest`: the newest row's id, when the caller just wrote it. */
  private trim(keep: number, newest = this.newest.get()?.id ?? 0): number {
    const edge = newest - keep;
    if (edge <= 0) return 0;
    const dropped = this.dropUpTo.run(edge).changes;
    this.bodies.trim(edge);
    return dropped;
  }

  private write<T>(work: () => T): T {
    try {
      return this.transact(work);
    } catch (error) {
      this.bodies.forget();
      throw error;
    }
  }

  get(id: number): StoredTrafficEntry | undefined {
    const row = this.one.get(id);
    return row && toEntry(row);
  }

  /** Full entries from `since` on, oldest first. */
  entries(filter: TrafficFilter, since: TrafficCursor | undefined, limit: number): StoredTrafficEntry[] {
    const { sql, params } = where(filter, since);
    return this.db.prepare<(string | number)[], Row>(`SELECT ${ENTRY_COLUMNS} FROM traffic ${sql} ORDER BY id LIMIT ?`).all(...params, limit).map(toEntry);
  }

  /** The newest `limit` entries of the filtered set, oldest first (what an export takes). */
  latest(filter: TrafficFilter, limit: number): StoredTrafficEntry[] {
    const { sql, params } = where(filter);
    return this.db
      .prepare<(string | number)[], Row>(`SELECT * FROM (SELECT ${ENTRY_COLUMNS} FROM traffic ${sql} ORDER BY id DESC LIMIT ?) ORDER BY id`)
      .all(...params, limit)
      .map(toEntry);
  }

  /**
   * Where an entry stands in the filtered set (0-based), or null when the set does not hold it
   * (filtered out, or dropped by the retention cap). Lets a list keep an entry in place while the
   * oldest rows go.
   */
  locate(filter: TrafficFilter, id: number): number | null {
    const { sql, params } = where(filter);
    const and = sql ? `${sql} AND` : 'WHERE';
    const held = this.db.prepare<(string | number)[], { id: number }>(`SELECT id FROM traffic ${and} id = ?`).get(...params, id);
    if (!held) return null;
    return this.db.prepare<(string | number)[], { n: number }>(`SELECT COUNT(*) AS n FROM traffic ${and} id < ?`).get(...params, id)!.n;
  }

  /** A page of summaries of the filtered set, oldest first, and the size of the set. */
  page(filter: TrafficFilter, offset: number, limit: number): { total: number; rows: TrafficSummary[] } {
    const { sql, params } = where(filter);
    const total = this.db.prepare<(string | number)[], { n: number }>(`SELECT COUNT(*) AS n FROM traffic ${sql}`).get(...params)!.n;
    const rows = this.db
      .prepare<(string | number)[], Row>(`SELECT ${SUMMARY_COLUMNS} FROM traffic ${sql} ORDER BY id LIMIT ? OFFSET ?`)
      .all(...params, limit, offset)
      .map(toSummary);
    return { total, rows };
  }
}
