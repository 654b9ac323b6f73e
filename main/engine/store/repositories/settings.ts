/** Engine settings as JSON values under string keys (clock, login options, retention, …). */
import type { SqliteDatabase } from '../database.js';

export class SettingsRepository {
  private readonly select;
  private readonly upsert;

  constructor(db: SqliteDatabase) {
    this.select = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
    this.upsert = db.prepare<[string, string]>(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
  }

  get<T>(key: string): T | undefined {
    const row = this.select.get(key);
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  set(key: string, value: unknown): void {
    this.upsert.run(key, JSON.stringify(value));
  }
}
