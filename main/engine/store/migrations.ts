/**
 * Numbered schema migrations. Each runs once, in its own transaction, and is recorded in
 * `schema_version`; a database written by a newer console is refused rather than damaged. Every
 * database file of a connection (`main`, and the traffic log attached as `log`) keeps its own.
 */
import type { SqliteDatabase } from './database.js';

export interface Migration {
  version: number;
  name: string;
  up: string | ((db: SqliteDatabase, hooks: MigrationHooks) => void);
}

/**
 * What the caller lends a migration that hands data to a database file the store does not know:
 * migration 11 gives the traffic log's old rows to the log (see `TrafficLogAttachment`).
 */
export interface MigrationHooks {
  /** Takes `main.traffic` and `main.traffic_bodies` into the attached traffic log. */
  takeTrafficRows?: (db: SqliteDatabase) => void;
}

export function schemaVersion(db: SqliteDatabase, schema = 'main'): number {
  const row = db.prepare(`SELECT MAX(version) AS version FROM ${schema}.schema_version`).get() as {
    version: number | null;
  };
  return row.version ?? 0;
}

/** Brings `schema` (a database of the connection: `main` or an attached one) to the latest migration. */
export function migrate(
  db: SqliteDatabase,
  migrations: readonly Migration[],
  appliedAt: number,
  schema = 'main',
  hooks: MigrationHooks = {},
): number {
  checkNumbering(migrations);
  db.exec(`CREATE TABLE IF NOT EXISTS ${schema}.schema_version (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const current = schemaVersion(db, schema);
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new Error(
      `${schema === 'main' ? 'the database' : `the ${schema} database`} has schema version ${current}, newer than this console knows (${latest}); use a newer console or another --data-dir`,
    );
  }
  const record = db.prepare(`INSERT INTO ${schema}.schema_version (version, name, applied_at) VALUES (?, ?, ?)`);
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      if (typeof migration.up === 'string') db.exec(migration.up);
      else migration.up(db, hooks);
      record.run(migration.version, migration.name, appliedAt);
    })();
  }
  return schemaVersion(db, schema);
}

function checkNumbering(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`migration ${migration.name} has version ${migration.version}, expected ${index + 1}`);
    }
  });
}
