import type { Migration } from '../migrations.js';

/**
 * Response bodies of 512 bytes and more live in `traffic_bodies`, one row per distinct content
 * for as long as any traffic row uses it: players ask for the same windows again and again, and
 * 006 shared a body only within one write batch. `last_use` is the newest traffic row that uses
 * the body, so trimming the log drops exactly the bodies no remaining row points at.
 *
 * Rows 006 wrote keep their content: a body that later rows pointed at moves to the new table
 * (its id is the holding row's), and every row that held or pointed at it refers to it there.
 */
export const trafficBodiesMigration: Migration = {
  version: 7,
  name: 'traffic-bodies',
  up: `
    CREATE TABLE traffic_bodies (
      id INTEGER PRIMARY KEY,
      last_use INTEGER NOT NULL,
      body TEXT NOT NULL
    );
    CREATE INDEX traffic_bodies_by_last_use ON traffic_bodies(last_use);
    ALTER TABLE traffic ADD COLUMN response_body_id INTEGER;

    INSERT INTO traffic_bodies (id, last_use, body)
      SELECT id, id, response_body FROM traffic
      WHERE id IN (SELECT id + response_body_ahead FROM traffic WHERE response_body_ahead IS NOT NULL);
    UPDATE traffic SET response_body_id = id + response_body_ahead WHERE response_body_ahead IS NOT NULL;
    UPDATE traffic SET response_body_id = id, response_body = NULL WHERE id IN (SELECT id FROM traffic_bodies);
    ALTER TABLE traffic DROP COLUMN response_body_ahead;
  `,
};
