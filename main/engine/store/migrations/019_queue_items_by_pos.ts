import type { Migration } from '../migrations.js';

/**
 * A slim index of each queue's items by position: the editor's pages (`queues.items.page`) and an
 * item's place (`queues.items.locate`) count rows up to an offset, and counted over the table
 * itself, whose rows hold each item's JSON, they read the whole queue up to there: 0.3–0.4 s at
 * the end of a million-item queue, every listener held. Over this index, 30–55 ms. It costs each
 * insert about 5% more, and its making takes about 0.8 s per million items already stored.
 */
export const queueItemsByPosMigration: Migration = {
  version: 19,
  name: 'queue-items-by-pos',
  up: `
    CREATE INDEX queue_items_by_pos ON queue_items(queue_key, pos);
  `,
};
