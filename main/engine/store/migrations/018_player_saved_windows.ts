import type { Migration } from '../migrations.js';

/**
 * The window a player's saved record holds, kept apart from the record (docs/contract/console.md
 * §1). A player changes hundreds of times an hour of play (each report, each poll), its window a
 * few times: stored inside the record, the window's 5 kB were written again with every change.
 * Records saved before this keep their window inside them, and are read as they are.
 */
export const playerSavedWindowsMigration: Migration = {
  version: 18,
  name: 'player-saved-windows',
  up: `
    CREATE TABLE player_saved_windows (
      player_id TEXT PRIMARY KEY,
      window TEXT NOT NULL
    ) WITHOUT ROWID;
  `,
};
