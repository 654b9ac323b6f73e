import type { Migration } from '../migrations.js';
import { lastTrafficId, rowsToSegments } from '../log-migrations/traffic-rows.js';

/**
 * The traffic log moves to a database file of its own, attached as `log` (see `traffic-log.ts`):
 * its rows go there as segments (the log's own migrations ran first), its shared bodies as they
 * are, the next id with them (a cleared log had none to carry it), and its tables go from here.
 * The console's database is in WAL mode, so this transaction is atomic in each file but not across
 * them: SQLite commits this file first, and a process killed between the two commits loses the
 * moved rows (the log's half is rolled back). A window of a one-time move, for a log; the
 * console's own state is never at stake. `OR IGNORE` keeps a repeated copy harmless.
 *
 * (Written while the log kept one row per exchange, this moved rows as they were; it became the
 * move into segments with the log's migration 2, before any database had a reason to run it
 * differently: either way the log ends up holding the same entries.)
 */
export const trafficLogFileMigration: Migration = {
  version: 11,
  name: 'traffic-log-file',
  up: (db) => {
    db.exec('INSERT OR IGNORE INTO log.traffic_bodies (id, last_use, body) SELECT id, last_use, body FROM main.traffic_bodies');
    const newest = rowsToSegments(db, 'main.traffic');
    db.prepare('UPDATE log.traffic_state SET next_id = MAX(next_id, ?)').run(Math.max(newest, lastTrafficId(db, 'main')) + 1);
    db.exec('DROP TABLE main.traffic; DROP TABLE main.traffic_bodies;');
  },
};
