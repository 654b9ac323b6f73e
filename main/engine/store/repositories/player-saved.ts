/** Each player's record for the next start (migration 012): written as it changes, read once at start. */
import type { SqliteDatabase } from '../database.js';

export interface PlayerSavedRow {
  groupId: string;
  savedAt: number;
  /** The console's own cloud queue server when the record was saved (null: not listening yet). */
  ownCloudQueue: string | null;
  /** The parsed JSON; the player checks its shape (`readSavedPlayer`). */
  record: unknown;
}

interface Row {
  group_id: string;
  saved_at: number;
  own_cloud_queue: string | null;
  record: string;
}

export class PlayerSavedRepository {
  private readonly select;
  private readonly upsert;
  private readonly remove;

  constructor(db: SqliteDatabase) {
    this.select = db.prepare<[string], Row>(
      'SELECT group_id, saved_at, own_cloud_queue, record FROM player_saved WHERE player_id = ?',
    );
    this.upsert = db.prepare<[string, string, number, string | null, string]>(
      `INSERT INTO player_saved (player_id, group_id, saved_at, own_cloud_queue, record) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(player_id) DO UPDATE SET group_id = excluded.group_id, saved_at = excluded.saved_at,
         own_cloud_queue = excluded.own_cloud_queue, record = excluded.record`,
    );
    this.remove = db.prepare<[string]>('DELETE FROM player_saved WHERE player_id = ?');
  }

  get(playerId: string): PlayerSavedRow | undefined {
    const row = this.select.get(playerId);
    if (!row) return undefined;
    let record: unknown;
    try {
      record = JSON.parse(row.record);
    } catch {
      record = null;
    }
    return { groupId: row.group_id, savedAt: row.saved_at, ownCloudQueue: row.own_cloud_queue, record };
  }

  save(playerId: string, row: PlayerSavedRow): void {
    this.upsert.run(playerId, row.groupId, row.savedAt, row.ownCloudQueue, JSON.stringify(row.record));
  }

  delete(playerId: string): void {
    this.remove.run(playerId);
  }
}
