import type { Migration } from '../migrations.js';

/**
 * Contract violations the players found in cloud queue responses (docs/contract/console.md §5),
 * kept across restarts: the newest 1,000 of each player (the repository trims as it adds). The id
 * never comes back once given (AUTOINCREMENT), so a violation keeps its id after older ones go.
 * `traffic_id` is the traffic log entry of the exchange, in the log's own file: no foreign key
 * reaches it, and an entry the log's retention dropped leaves the id pointing at nothing.
 */
export const playerViolationsMigration: Migration = {
  version: 16,
  name: 'player-violations',
  up: `
    CREATE TABLE player_violations (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      player_id TEXT NOT NULL,
      at INTEGER NOT NULL,
      level TEXT NOT NULL CHECK (level IN ('error', 'warning')),
      rule TEXT NOT NULL,
      message TEXT NOT NULL,
      traffic_id INTEGER
    );
    CREATE INDEX player_violations_by_player ON player_violations(player_id, id);
    CREATE INDEX player_violations_by_traffic ON player_violations(traffic_id) WHERE traffic_id IS NOT NULL;
  `,
};
