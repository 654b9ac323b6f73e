import type { Migration } from '../migrations.js';

/**
 * The traffic log moves to a database file of its own, attached as `log` (see `traffic-log.ts`):
 * its rows go there as they are and its tables go from here. `OR IGNORE`: the console's
 * database is in WAL mode, so a transaction across both files is atomic in each file but not
 * across them; should the copy land and the drop not, the copy runs again harmlessly.
 */
export const trafficLogFileMigration: Migration = {
  version: 11,
  name: 'traffic-log-file',
  up: `
    INSERT OR IGNORE INTO log.traffic (id, target, at, wall_at, method, url, path, reason, status, latency_ms, retry, fault, player_id, request_id, outcome, request_headers, request_body, response_headers, response_body, response_body_id)
      SELECT id, target, at, wall_at, method, url, path, reason, status, latency_ms, retry, fault, player_id, request_id, outcome, request_headers, request_body, response_headers, response_body, response_body_id FROM main.traffic;
    INSERT OR IGNORE INTO log.traffic_bodies (id, last_use, body) SELECT id, last_use, body FROM main.traffic_bodies;
    DROP TABLE main.traffic;
    DROP TABLE main.traffic_bodies;
  `,
};
