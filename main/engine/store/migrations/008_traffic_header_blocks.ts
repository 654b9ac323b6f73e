import type { Migration } from '../migrations.js';

/**
 * Traffic headers are stored as header blocks (`Name: value` lines, see `traffic/log/header-block.ts`)
 * instead of JSON objects: capture takes the block Node already wrote for a response, which
 * spares each exchange a header object and its JSON. Rows written before are converted in place.
 */
export const trafficHeaderBlocksMigration: Migration = {
  version: 8,
  name: 'traffic-header-blocks',
  up: `
    UPDATE traffic SET
      request_headers = COALESCE((SELECT group_concat(key || ': ' || value || char(13, 10), '' ORDER BY id) FROM json_each(traffic.request_headers)), ''),
      response_headers = COALESCE((SELECT group_concat(key || ': ' || value || char(13, 10), '' ORDER BY id) FROM json_each(traffic.response_headers)), '');
  `,
};
