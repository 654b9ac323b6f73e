import type { Migration } from '../migrations.js';

/** The players' transition timelines, kept across restarts (the traffic log links to them). */
export const playerMigration: Migration = {
  version: 4,
  name: 'player',
  up: `
    CREATE TABLE player_transitions (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      player_id TEXT NOT NULL,
      group_id TEXT NOT NULL,
      at INTEGER NOT NULL,
      from_state TEXT NOT NULL,
      to_state TEXT NOT NULL,
      event TEXT NOT NULL,
      cause TEXT NOT NULL,
      transition TEXT NOT NULL,
      request_id TEXT,
      detail TEXT
    );
    CREATE INDEX player_transitions_by_player ON player_transitions(player_id, seq);
    CREATE INDEX player_transitions_by_request ON player_transitions(request_id) WHERE request_id IS NOT NULL;
  `,
};
