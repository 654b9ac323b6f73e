/**
 * The traffic log's rows. Inserts come in batches (one transaction per flush); reads are pages of
 * a filtered, id-ordered set; the oldest rows go once the retention cap is passed.
 */
import type { FaultHit } from '../../api/fault-types.js';
import type { TrafficEntry, TrafficFilter, TrafficOutcome, TrafficSummary, TrafficTarget } from '../../api/traffic-types.js';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../database.js';

/** An entry before it has an id. */
export type NewTrafficEntry = Omit<TrafficEntry, 'id' | 'redacted' | 'transitions'>;

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

/**
 * A row's response body: its own, or the later row's of the same batch that holds it. Rows go
 * oldest first, so the row holding a body always outlives the rows that point at it.
 */
const RESPONSE_BODY = 'COALESCE(response_body, (SELECT held.response_body FROM traffic held WHERE held.id = traffic.id + traffic.response_body_ahead))';

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
    requestHeaders: JSON.parse(row.request_headers) as Record<string, string>,
    requestBody: row.request_body,
    responseHeaders: JSON.parse(row.response_headers) as Record<string, string>,
    responseBody: row.response_body,
  };
}

/** SQL for a filter, with its parameters. */
function where(filter: TrafficFilter, since?: number): { sql: string; params: (string | number)[] } {
  const clauses: string[] = [];
  const params: (string | number)[] = [];
  if (since !== undefined) {
    clauses.push('id > ?');
    params.push(since);
  }
  if (filter.target) {
    clauses.push('target = ?');
    params.push(filter.target);
  }
  if (filter.reason) {
    clauses.push('reason = ?');
    params.push(filter.reason);
  }
  if (filter.status) {
    const status = filter.status.trim().toLowerCase();
    if (status === 'none') clauses.push('status IS NULL');
    else if (/^[1-5]xx$/.test(status)) {
      clauses.push('status BETWEEN ? AND ?');
      params.push(Number(status[0]) * 100, Number(status[0]) * 100 + 99);
    } else if (/^\d{3}$/.test(status)) {
      clauses.push('status = ?');
      params.push(Number(status));
    }
  }
  if (filter.text) {
    // The URL, not just the path: a query (`itemId=item-7`, `reason=`) is what people look for.
    clauses.push(`(url LIKE ? ESCAPE '\\' OR request_body LIKE ? ESCAPE '\\' OR ${RESPONSE_BODY} LIKE ? ESCAPE '\\')`);
    const like = `%${filter.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    params.push(like, like, like);
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

const COLUMNS = 'target, at, wall_at, method, url, path, reason, status, latency_ms, retry, fault, player_id, request_id, outcome, request_headers, request_body, response_headers, response_body, response_body_ahead';
const WIDTH = 19;
const ROW = `(${Array(WIDTH).fill('?').join(', ')})`;
/** Rows per INSERT: one statement per row costs more than the row itself. */
const ROWS_PER_INSERT = 32;

/**
 * The log is written as plain statements with their arguments, so that a flush (its inserts and
 * the retention trim) runs as one transaction. Answers are `[lastInsertRowid, changes]` per
 * statement.
 */
export interface TrafficOp {
  sql: string;
  args: unknown[];
}
export type TrafficOpResult = [lastId: number, changes: number];

const INSERT_ONE = `INSERT INTO traffic (${COLUMNS}) VALUES ${ROW}`;
const INSERT_MANY = `INSERT INTO traffic (${COLUMNS}) VALUES ${Array(ROWS_PER_INSERT).fill(ROW).join(', ')}`;
const TRIM = 'DELETE FROM traffic WHERE id <= (SELECT MAX(id) FROM traffic) - ?';
const CLEAR = 'DELETE FROM traffic';

/** Writes an entry's columns into `args` from `at` on, in COLUMNS order; `ahead`: see `sharedBodies`. */
function bind(args: unknown[], at: number, e: NewTrafficEntry, ahead: number | undefined): void {
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
  args[at + 14] = JSON.stringify(e.requestHeaders);
  args[at + 15] = e.requestBody;
  args[at + 16] = JSON.stringify(e.responseHeaders);
  args[at + 17] = ahead === undefined ? e.responseBody : null;
  args[at + 18] = ahead ?? null;
}

/** Bodies shorter than this are stored as they are: a copy costs less than finding it. */
const SHARED_BODY_MIN = 512;

/**
 * For each entry whose response body a later entry of the batch also has, how far ahead the last
 * one is: that row holds the body, this one only the distance (ids within a batch are
 * consecutive). Bodies are found by length and tail, then compared in full, so a 5 kB window
 * costs a short hash and one compare, not a hash of all of it.
 */
export function sharedBodies(entries: readonly NewTrafficEntry[]): (number | undefined)[] {
  const ahead: (number | undefined)[] = new Array(entries.length);
  const holders = new Map<string, number>();
  for (let i = entries.length - 1; i >= 0; i--) {
    const body = entries[i]!.responseBody;
    if (body === null || body.length < SHARED_BODY_MIN) continue;
    const key = `${body.length}:${body.slice(-64)}`;
    const holder = holders.get(key);
    if (holder !== undefined && entries[holder]!.responseBody === body) ahead[i] = holder - i;
    else holders.set(key, i);
  }
  return ahead;
}

/** The statements that store a batch, in order. */
export function insertOps(entries: readonly NewTrafficEntry[]): TrafficOp[] {
  const ops: TrafficOp[] = [];
  const ahead = sharedBodies(entries);
  let i = 0;
  for (; i + ROWS_PER_INSERT <= entries.length; i += ROWS_PER_INSERT) {
    const args: unknown[] = new Array(ROWS_PER_INSERT * WIDTH);
    for (let j = 0; j < ROWS_PER_INSERT; j++) bind(args, j * WIDTH, entries[i + j]!, ahead[i + j]);
    ops.push({ sql: INSERT_MANY, args });
  }
  for (; i < entries.length; i++) {
    const args: unknown[] = new Array(WIDTH);
    bind(args, 0, entries[i]!, ahead[i]);
    ops.push({ sql: INSERT_ONE, args });
  }
  return ops;
}

/** The batch with its ids, from the answers of its `insertOps` (one statement's rows get consecutive ids). */
export function storedSummaries(entries: readonly NewTrafficEntry[], results: readonly TrafficOpResult[]): TrafficSummary[] {
  const stored: TrafficSummary[] = new Array(entries.length);
  let i = 0;
  for (const [lastId, rows] of results) {
    for (let j = 0; j < rows && i < entries.length; j++, i++) stored[i] = summaryOf(entries[i]!, lastId - rows + 1 + j);
  }
  return stored;
}

/** Drops the oldest rows beyond `keep`. */
export const trimOp = (keep: number): TrafficOp => ({ sql: TRIM, args: [keep] });
export const clearOp = (): TrafficOp => ({ sql: CLEAR, args: [] });

const prepared = new WeakMap<SqliteDatabase, Map<string, Statement<unknown[]>>>();

/** Runs the statements in one transaction on a connection. */
export function runOps(db: SqliteDatabase, ops: readonly TrafficOp[]): TrafficOpResult[] {
  let cache = prepared.get(db);
  if (!cache) prepared.set(db, (cache = new Map()));
  const statements = cache;
  return db.transaction(() =>
    ops.map(({ sql, args }): TrafficOpResult => {
      let statement = statements.get(sql);
      if (!statement) statements.set(sql, (statement = db.prepare<unknown[]>(sql)));
      const { lastInsertRowid, changes } = statement.run(...args);
      return [Number(lastInsertRowid), changes];
    }),
  )();
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

  constructor(private readonly db: SqliteDatabase) {
    this.one = db.prepare<[number], Row>(`SELECT ${ENTRY_COLUMNS} FROM traffic WHERE id = ?`);
  }

  /** Runs writes on the engine's own connection (see `runOps`). */
  run(ops: readonly TrafficOp[]): TrafficOpResult[] {
    return runOps(this.db, ops);
  }

  /** Inserts a batch in one transaction; returns the entries with their ids. */
  addAll(entries: readonly NewTrafficEntry[]): TrafficSummary[] {
    return storedSummaries(entries, this.run(insertOps(entries)));
  }

  /** Drops the oldest rows beyond `keep`. */
  retain(keep: number): number {
    return this.run([trimOp(keep)])[0]![1];
  }

  get(id: number): StoredTrafficEntry | undefined {
    const row = this.one.get(id);
    return row && toEntry(row);
  }

  /** Full entries after `since` (an id), oldest first. */
  entries(filter: TrafficFilter, since: number | undefined, limit: number): StoredTrafficEntry[] {
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

  byRequestId(requestId: string): TrafficSummary[] {
    return this.db.prepare<[string], Row>(`SELECT ${SUMMARY_COLUMNS} FROM traffic WHERE request_id = ? ORDER BY id`).all(requestId).map(toSummary);
  }

  clear(): number {
    return this.run([clearOp()])[0]![1];
  }
}
