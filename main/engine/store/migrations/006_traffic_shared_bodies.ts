import type { Migration } from '../migrations.js';

/**
 * A traffic row whose response body is the same as a later row's of the same batch keeps only the
 * distance to that row (`response_body_ahead`); players ask for the same windows over and over,
 * and storing each copy was most of what capture cost (see `insertOps`). The status index goes
 * too: every row paid for it on the way in and out, while a status filter reads rows that are
 * small now that bodies are shared, in id order, as the list wants them anyway.
 */
export const trafficSharedBodiesMigration: Migration = {
  version: 6,
  name: 'traffic-shared-bodies',
  up: `
    ALTER TABLE traffic ADD COLUMN response_body_ahead INTEGER;
    DROP INDEX traffic_by_status;
  `,
};
