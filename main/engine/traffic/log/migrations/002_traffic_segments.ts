import type { Migration } from '../../../store/migrations.js';
import { lastTrafficId, rowsToSegments } from './traffic-rows.js';

/**
 * The log in segments (see `codec.ts`): one row per flush instead of one per exchange.
 * The rows there move into segments, the next id goes to `traffic_state` (a cleared log had
 * none to carry it), and the row table goes. `dropped_through`: the newest id trimming has hidden
 * in a segment it could not delete yet (one that straddles the retention cap).
 */
export const trafficSegmentsMigration: Migration = {
  version: 2,
  name: 'traffic-segments',
  up: (db) => {
    db.exec(`
      CREATE TABLE log.traffic_segments (
        first_id INTEGER PRIMARY KEY,
        last_id INTEGER NOT NULL,
        summary BLOB NOT NULL,
        detail BLOB NOT NULL
      );
      CREATE TABLE log.traffic_state (
        next_id INTEGER NOT NULL,
        dropped_through INTEGER NOT NULL
      );
    `);
    const newest = rowsToSegments(db, 'log.traffic');
    db.prepare('INSERT INTO log.traffic_state (next_id, dropped_through) VALUES (?, 0)').run(
      Math.max(newest, lastTrafficId(db, 'log')) + 1,
    );
    db.exec('DROP TABLE log.traffic');
  },
};
