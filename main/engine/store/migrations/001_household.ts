import type { Migration } from '../migrations.js';

/** Settings, the household model (docs/contract/console.md §1) and the login users. */
export const householdMigration: Migration = {
  version: 1,
  name: 'household',
  up: `
    CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );
    CREATE TABLE households (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE TABLE groups (
      id TEXT PRIMARY KEY,
      household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
      coordinator_id TEXT NOT NULL
    );
    CREATE TABLE players (
      id TEXT PRIMARY KEY,
      household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE,
      group_id TEXT NOT NULL REFERENCES groups(id),
      name TEXT NOT NULL,
      position INTEGER NOT NULL
    );
    CREATE INDEX players_by_group ON players(group_id);
    CREATE TABLE users (
      id TEXT PRIMARY KEY,
      username TEXT NOT NULL UNIQUE,
      password_hash TEXT NOT NULL,
      household_id TEXT NOT NULL REFERENCES households(id) ON DELETE CASCADE
    );
  `,
};
