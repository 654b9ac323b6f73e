import type { Migration } from '../migrations.js';

/**
 * The reference cloud queue server (docs/contract/console.md §4): queues, their items in order, and the timePlayed
 * reports players post. Items are clustered by (queue, pos) so that an item window is one short
 * range scan; `pos` is a sparse integer label (see `cloud-queue/positions.ts`). Item ids are
 * `item-<seq>`, so the id index holds integers, appended in order as queues grow. Queue keys are
 * never reused (AUTOINCREMENT), so anything keyed by (key, queueVersion) is never stale.
 */
export const queuesMigration: Migration = {
  version: 3,
  name: 'queues',
  up: `
    CREATE TABLE queues (
      key INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      queue_version INTEGER NOT NULL,
      context_version INTEGER NOT NULL,
      next_item_seq INTEGER NOT NULL,
      item_count INTEGER NOT NULL,
      container TEXT NOT NULL,
      playback_policies TEXT NOT NULL,
      reports TEXT NOT NULL,
      access_token TEXT NOT NULL,
      token_issued_at INTEGER NOT NULL,
      token_expires_at INTEGER NOT NULL
    );
    CREATE TABLE queue_items (
      queue_key INTEGER NOT NULL REFERENCES queues(key) ON DELETE CASCADE,
      pos INTEGER NOT NULL,
      item_seq INTEGER NOT NULL,
      item TEXT NOT NULL,
      PRIMARY KEY (queue_key, pos)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX queue_items_by_seq ON queue_items(queue_key, item_seq);
    CREATE TABLE time_played (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      queue_key INTEGER NOT NULL REFERENCES queues(key) ON DELETE CASCADE,
      item_id TEXT NOT NULL,
      player_id TEXT,
      received_at INTEGER NOT NULL,
      type TEXT NOT NULL,
      report TEXT NOT NULL
    );
    CREATE INDEX time_played_by_item ON time_played(queue_key, item_id, seq);
  `,
};
