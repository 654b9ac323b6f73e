import type { Migration } from '../migrations.js';

/**
 * The request id index goes too: nothing reads the log by request id (the link from an exchange
 * to the transitions it caused is looked up in `player_transitions`, which has its own index), and
 * every player request carries an `X-Request-Id`, so each captured exchange paid for an index
 * entry on the way in and again when the retention cap dropped it. The log's rows are now found by
 * id only.
 */
export const trafficWithoutRequestIndexMigration: Migration = {
  version: 10,
  name: 'traffic-without-request-index',
  up: `DROP INDEX traffic_by_request;`,
};
