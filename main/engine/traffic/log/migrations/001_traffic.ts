import type { Migration } from '../../../store/migrations.js';

/**
 * The traffic log in a file of its own (see `file.ts`): the rows and shared bodies as
 * migrations 5 to 10 of the console's database left them. Migration 11 there moves their rows
 * here (through `takeTrafficRows`).
 */
export const trafficLogMigration: Migration = {
  version: 1,
  name: 'traffic',
  up: `
    CREATE TABLE log.traffic (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      target TEXT NOT NULL,
      at INTEGER NOT NULL,
      wall_at INTEGER NOT NULL,
      method TEXT NOT NULL,
      url TEXT NOT NULL,
      path TEXT NOT NULL,
      reason TEXT,
      status INTEGER,
      latency_ms INTEGER,
      retry INTEGER,
      fault TEXT,
      player_id TEXT,
      request_id TEXT,
      outcome TEXT NOT NULL,
      request_headers TEXT NOT NULL,
      request_body TEXT,
      response_headers TEXT NOT NULL,
      response_body TEXT,
      response_body_id INTEGER
    );
    CREATE TABLE log.traffic_bodies (
      id INTEGER PRIMARY KEY,
      last_use INTEGER NOT NULL,
      body TEXT NOT NULL
    );
    CREATE INDEX log.traffic_bodies_by_last_use ON traffic_bodies(last_use);
  `,
};
