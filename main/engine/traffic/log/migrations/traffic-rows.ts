/**
 * The traffic log's rows as it kept them before segments, one row per exchange (the log's own
 * version 1, and the console's database before its migration 11), written as segments: runs of
 * consecutive ids, up to ROWS_PER_SEGMENT each. What a row held an entry holds; a row's shared
 * response body stays shared under its id.
 */
import type { FaultHit } from '../../../api/fault-types.js';
import type { TrafficOutcome, TrafficTarget } from '../../../api/traffic-types.js';
import type { SqliteDatabase } from '../../../store/database.js';
import { DamagedTrafficError, SegmentWriter } from '../codec.js';

const ROWS_PER_SEGMENT = 500;
const ROWS_PER_READ = 5_000;

interface Row {
  id: number;
  target: TrafficTarget;
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
  outcome: TrafficOutcome;
  request_headers: string;
  request_body: string | null;
  response_headers: string;
  response_body: string | null;
  response_body_id: number | null;
}

/**
 * Writes every row of `table` (schema-qualified) into `log.traffic_segments`; returns the newest
 * row's id (0: none). A segment already there (a move repeated after half of it was committed) is
 * left as it is: the same rows make the same segments.
 */
export function rowsToSegments(db: SqliteDatabase, table: string): number {
  const read = db.prepare<[number], Row>(`SELECT * FROM ${table} WHERE id > ? ORDER BY id LIMIT ${ROWS_PER_READ}`);
  const insert = db.prepare<[number, number, Buffer, Buffer]>(
    'INSERT OR IGNORE INTO log.traffic_segments (first_id, last_id, summary, detail) VALUES (?, ?, ?, ?)',
  );
  const writer = new SegmentWriter();
  let first = 0;
  let previous = 0;
  const write = () => {
    if (writer.count === 0) return;
    const { summary, detail } = writer.encode();
    insert.run(first, previous, summary, detail);
    writer.reset();
  };
  for (let after = 0; ;) {
    const rows = read.all(after);
    for (const row of rows) {
      if (row.id !== previous + 1 || writer.count >= ROWS_PER_SEGMENT) write();
      if (writer.count === 0) first = row.id;
      addRow(writer, row);
      previous = row.id;
    }
    if (rows.length < ROWS_PER_READ) break;
    after = rows.at(-1)!.id;
  }
  write();
  return previous;
}

/** A row as an entry of the segment; a row that cannot be read (a torn write) is damage, which puts the log aside. */
function addRow(writer: SegmentWriter, row: Row): void {
  try {
    writer.add(
      {
        target: row.target,
        at: row.at,
        wallAt: row.wall_at,
        method: row.method,
        url: row.url,
        path: row.path,
        reason: row.reason,
        status: row.status,
        latencyMs: row.latency_ms,
        retry: row.retry,
        fault: row.fault === null ? null : (JSON.parse(row.fault) as FaultHit),
        playerId: row.player_id,
        requestId: row.request_id,
        outcome: row.outcome,
        requestHeaders: row.request_headers,
        requestBody: row.request_body,
        responseHeaders: row.response_headers,
        responseBody: row.response_body,
      },
      row.response_body_id ?? 0,
    );
  } catch (error) {
    throw new DamagedTrafficError(`traffic row ${row.id} cannot be read: ${(error as Error).message}`);
  }
}

/**
 * The console's migration 11 (the log in a file of its own), the log's half: the console
 * database's shared bodies as they are, its rows as segments, and the next id with them (a cleared
 * log had none to carry it). The console's migration drops its tables after, in the same
 * transaction (see `store/migrations/011_traffic_log_file.ts`).
 */
export function takeTrafficRows(db: SqliteDatabase): void {
  db.exec(
    'INSERT OR IGNORE INTO log.traffic_bodies (id, last_use, body) SELECT id, last_use, body FROM main.traffic_bodies',
  );
  const newest = rowsToSegments(db, 'main.traffic');
  db.prepare('UPDATE log.traffic_state SET next_id = MAX(next_id, ?)').run(
    Math.max(newest, lastTrafficId(db, 'main')) + 1,
  );
}

/** The id AUTOINCREMENT gave last in `schema`'s `traffic` (0: none). */
export function lastTrafficId(db: SqliteDatabase, schema: string): number {
  return (
    (db.prepare(`SELECT seq FROM ${schema}.sqlite_sequence WHERE name = 'traffic'`).pluck().get() as
      number | undefined) ?? 0
  );
}
