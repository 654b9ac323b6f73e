import type { Migration } from '../migrations.js';

/**
 * What each player had when the engine stopped (its session, queue, window and playhead, see
 * `player/saved.ts`), one JSON record per player, so a restart finds it again (docs/contract/console.md §1).
 * Kept as one document: the player is its only reader, and it reads the whole of it at start.
 * `own_cloud_queue` is the console's own cloud queue server as it listened then: a queue of its
 * own is found at the next start's port.
 */
export const playerSavedMigration: Migration = {
  version: 12,
  name: 'player-saved',
  up: `
    CREATE TABLE player_saved (
      player_id TEXT PRIMARY KEY,
      group_id TEXT NOT NULL,
      saved_at INTEGER NOT NULL,
      own_cloud_queue TEXT,
      record TEXT NOT NULL
    ) WITHOUT ROWID;
  `,
};
