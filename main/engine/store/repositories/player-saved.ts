/**
 * Each player's record for the next start (migration 012): written as it changes, read once at
 * start. The window the record holds is kept in a row of its own (migration 018), written only
 * when the player holds another window: the record is written with every change.
 */
import type { SqliteDatabase } from '../database.js';

export interface PlayerSavedRow {
  groupId: string;
  savedAt: number;
  /** The console's own cloud queue server when the record was saved (null: not listening yet). */
  ownCloudQueue: string | null;
  /** The parsed JSON; the player checks its shape (`readSavedPlayer`). */
  record: unknown;
}

export interface PlayerSavedRead extends PlayerSavedRow {
  /**
   * The window kept beside the record, parsed (undefined: none, or one that is not JSON). A
   * record saved before migration 018 holds its window itself.
   */
  window: unknown;
}

interface Row {
  group_id: string;
  saved_at: number;
  own_cloud_queue: string | null;
  record: string;
  window: string | null;
}

export class PlayerSavedRepository {
  private readonly select;
  private readonly upsert;
  private readonly upsertWindow;
  private readonly remove;
  private readonly removeWindow;
  private readonly saveWithWindow;
  private readonly removeBoth;

  constructor(db: SqliteDatabase) {
    this.select = db.prepare<[string], Row>(
      `SELECT s.group_id, s.saved_at, s.own_cloud_queue, s.record, w.window
       FROM player_saved AS s LEFT JOIN player_saved_windows AS w ON w.player_id = s.player_id
       WHERE s.player_id = ?`,
    );
    this.upsert = db.prepare<[string, string, number, string | null, string]>(
      `INSERT INTO player_saved (player_id, group_id, saved_at, own_cloud_queue, record) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(player_id) DO UPDATE SET group_id = excluded.group_id, saved_at = excluded.saved_at,
         own_cloud_queue = excluded.own_cloud_queue, record = excluded.record`,
    );
    this.upsertWindow = db.prepare<[string, string]>(
      `INSERT INTO player_saved_windows (player_id, window) VALUES (?, ?)
       ON CONFLICT(player_id) DO UPDATE SET window = excluded.window`,
    );
    this.remove = db.prepare<[string]>('DELETE FROM player_saved WHERE player_id = ?');
    this.removeWindow = db.prepare<[string]>('DELETE FROM player_saved_windows WHERE player_id = ?');
    // The record and its window change together or not at all: a record never meets another window.
    this.saveWithWindow = db.transaction((playerId: string, row: PlayerSavedRow, window: unknown) => {
      this.upsertRecord(playerId, row);
      if (window === null) this.removeWindow.run(playerId);
      else this.upsertWindow.run(playerId, JSON.stringify(window));
    });
    this.removeBoth = db.transaction((playerId: string) => {
      this.remove.run(playerId);
      this.removeWindow.run(playerId);
    });
  }

  get(playerId: string): PlayerSavedRead | undefined {
    const row = this.select.get(playerId);
    if (!row) return undefined;
    return {
      groupId: row.group_id,
      savedAt: row.saved_at,
      ownCloudQueue: row.own_cloud_queue,
      record: parsed(row.record) ?? null,
      window: row.window === null ? undefined : parsed(row.window),
    };
  }

  /**
   * Writes the record, and `window` beside it: null takes the one kept away, undefined leaves it
   * as it is (the player holds the window it was last saved with).
   */
  save(playerId: string, row: PlayerSavedRow, window?: unknown): void {
    if (window === undefined) this.upsertRecord(playerId, row);
    else this.saveWithWindow(playerId, row, window);
  }

  delete(playerId: string): void {
    this.removeBoth(playerId);
  }

  private upsertRecord(playerId: string, row: PlayerSavedRow): void {
    this.upsert.run(playerId, row.groupId, row.savedAt, row.ownCloudQueue, JSON.stringify(row.record));
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
