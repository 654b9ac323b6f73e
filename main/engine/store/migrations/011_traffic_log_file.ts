import type { Migration } from '../migrations.js';

/**
 * The traffic log moves to a database file of its own, attached as `log` (see `traffic-log.ts`):
 * its rows go there as they are, the next id with them (a cleared log had none to carry it), and
 * its tables go from here. The console's database is in WAL mode, so this transaction is atomic
 * in each file but not across them: SQLite commits this file first, and a process killed between
 * the two commits loses the moved rows (the log's half is rolled back). A window of a one-time
 * move, for a log; the console's own state is never at stake. `OR IGNORE` keeps a repeated copy
 * harmless.
 */
export const trafficLogFileMigration: Migration = {
  version: 11,
  name: 'traffic-log-file',
  up: `
    INSERT OR IGNORE INTO log.traffic (id, target, at, wall_at, method, url, path, reason, status, latency_ms, retry, fault, player_id, request_id, outcome, request_headers, request_body, response_headers, response_body, response_body_id)
      SELECT id, target, at, wall_at, method, url, path, reason, status, latency_ms, retry, fault, player_id, request_id, outcome, request_headers, request_body, response_headers, response_body, response_body_id FROM main.traffic;
    INSERT OR IGNORE INTO log.traffic_bodies (id, last_use, body) SELECT id, last_use, body FROM main.traffic_bodies;
    UPDATE log.sqlite_sequence SET seq = MAX(seq, (SELECT seq FROM main.sqlite_sequence WHERE name = 'traffic'))
      WHERE name = 'traffic' AND EXISTS (SELECT 1 FROM main.sqlite_sequence WHERE name = 'traffic');
    INSERT INTO log.sqlite_sequence (name, seq) SELECT name, seq FROM main.sqlite_sequence
      WHERE name = 'traffic' AND NOT EXISTS (SELECT 1 FROM log.sqlite_sequence WHERE name = 'traffic');
    DROP TABLE main.traffic;
    DROP TABLE main.traffic_bodies;
  `,
};
