import type { Migration } from '../migrations.js';
import { MAX_REPORTS_PER_QUEUE } from '../repositories/time-played.js';

/**
 * timePlayed reports are kept per queue up to MAX_REPORTS_PER_QUEUE, the newest (docs/contract/console.md §9).
 * The index lets each POST find where the newest N end without reading the queue's reports; a
 * database from before the cap is cut to it here, at start, rather than by the first POST, where
 * deleting what grew unbounded would hold every listener.
 */
export const timePlayedCapMigration: Migration = {
  version: 13,
  name: 'time-played-cap',
  up: `
    CREATE INDEX time_played_by_queue ON time_played(queue_key, seq);
    DELETE FROM time_played WHERE seq IN (
      SELECT seq FROM (SELECT seq, ROW_NUMBER() OVER (PARTITION BY queue_key ORDER BY seq DESC) AS newer FROM time_played)
      WHERE newer > ${MAX_REPORTS_PER_QUEUE}
    );
  `,
};
