import type { Migration } from '../migrations.js';

/** Fault rules, the traffic log and saved scenarios. */
export const faultsTrafficMigration: Migration = {
  version: 5,
  name: 'faults-traffic',
  up: `
    CREATE TABLE fault_rules (
      id TEXT PRIMARY KEY,
      position INTEGER NOT NULL,
      rule TEXT NOT NULL
    );
    CREATE TABLE traffic (
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
      response_body TEXT
    );
    CREATE INDEX traffic_by_target ON traffic(target, id);
    CREATE INDEX traffic_by_reason ON traffic(reason, id) WHERE reason IS NOT NULL;
    CREATE INDEX traffic_by_status ON traffic(status, id);
    CREATE INDEX traffic_by_request ON traffic(request_id) WHERE request_id IS NOT NULL;
    CREATE TABLE scenarios (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      definition TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      last_report TEXT
    );
  `,
};
