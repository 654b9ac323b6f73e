import type { SqliteDatabase } from '../database.js';
import type { Migration } from '../migrations.js';

/**
 * The traffic log moves to a database file of its own, attached as `log` (see
 * `traffic/log/file.ts`): its rows go there as segments (the log's own migrations ran first), its
 * shared bodies as they are, the next id with them (a cleared log had none to carry it), and its
 * tables go from here. The console's database is in WAL mode, so this transaction is atomic in each
 * file but not across them: SQLite commits this file first, and a process killed between the two
 * commits loses the moved rows (the log's half is rolled back). A window of a one-time move, for a
 * log; the console's own state is never at stake. `OR IGNORE` keeps a repeated copy harmless.
 *
 * How the log stores entries is the log's to know: the store lends it the tables through
 * `takeTrafficRows`, given by whoever attached the log. A store opened without the log (tests of
 * the console's own state) has nothing to move, and a database that has is refused rather than
 * stripped of its traffic.
 *
 * (Written while the log kept one row per exchange, this moved rows as they were; it became the
 * move into segments with the log's migration 2, before any database had a reason to run it
 * differently: either way the log ends up holding the same entries.)
 */
export const trafficLogFileMigration: Migration = {
  version: 11,
  name: 'traffic-log-file',
  up: (db, { takeTrafficRows }) => {
    if (takeTrafficRows) takeTrafficRows(db);
    else if (holdsTraffic(db))
      throw new Error('migration 11 moves the traffic log into its own file, and the store was opened without it');
    db.exec('DROP TABLE main.traffic; DROP TABLE main.traffic_bodies;');
  },
};

/** Whether dropping the tables would lose anything: a row, a body, or the next id of a cleared log. */
function holdsTraffic(db: SqliteDatabase): boolean {
  return (
    db
      .prepare(
        "SELECT EXISTS (SELECT 1 FROM main.traffic) OR EXISTS (SELECT 1 FROM main.traffic_bodies) OR EXISTS (SELECT 1 FROM main.sqlite_sequence WHERE name = 'traffic')",
      )
      .pluck()
      .get() === 1
  );
}
