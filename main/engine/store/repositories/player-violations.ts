/**
 * Contract violations per player (migration 016), the newest `keptPerPlayer` of each: every add
 * lets the player's oldest go past the cap in the same transaction, so the count never passes it.
 */
import { PLAYER_VIOLATIONS_KEPT, type PlayerViolation } from '../../api/player-types.js';
import { transactor, type SqliteDatabase, type Transact } from '../database.js';

export type StoredViolation = PlayerViolation;
export type NewViolation = Omit<StoredViolation, 'id'>;
/**
 * The longest message stored: a message quotes the server (an item id it sent twice), and a
 * server may send ids of any length (docs/contract/console.md §9).
 */
export const MAX_VIOLATION_MESSAGE = 1_000;

interface Row {
  id: number;
  at: number;
  player_id: string;
  level: 'error' | 'warning';
  rule: string;
  message: string;
  traffic_id: number | null;
}

const toViolation = (row: Row): StoredViolation => ({
  id: row.id,
  at: row.at,
  playerId: row.player_id,
  level: row.level,
  rule: row.rule,
  message: row.message,
  trafficId: row.traffic_id,
});

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export class PlayerViolationRepository {
  private readonly insert;
  private readonly latest;
  private readonly byTraffic;
  private readonly trim;
  private readonly transact: Transact;

  constructor(
    db: SqliteDatabase,
    private readonly keptPerPlayer = PLAYER_VIOLATIONS_KEPT,
  ) {
    this.transact = transactor(db);
    this.insert = db.prepare<[string, number, string, string, string, number | null]>(
      'INSERT INTO player_violations (player_id, at, level, rule, message, traffic_id) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.latest = db.prepare<[string, number], Row>(
      'SELECT * FROM player_violations WHERE player_id = ? ORDER BY id DESC LIMIT ?',
    );
    this.byTraffic = db.prepare<[number], Row>('SELECT * FROM player_violations WHERE traffic_id = ? ORDER BY id');
    // Older than the player's N-th newest; nothing while it has fewer (the subquery is NULL).
    this.trim = db.prepare<{ playerId: string; skip: number }>(
      `DELETE FROM player_violations WHERE player_id = @playerId AND id < (
         SELECT id FROM player_violations WHERE player_id = @playerId ORDER BY id DESC LIMIT 1 OFFSET @skip)`,
    );
  }

  /** Stores the violations of one response together; answers them with their ids. */
  addAll(violations: readonly NewViolation[]): StoredViolation[] {
    if (violations.length === 0) return [];
    return this.transact(() => {
      const stored = violations.map((v) => {
        const message = clip(v.message, MAX_VIOLATION_MESSAGE);
        const { lastInsertRowid } = this.insert.run(v.playerId, v.at, v.level, v.rule, message, v.trafficId);
        return { ...v, message, id: Number(lastInsertRowid) };
      });
      for (const playerId of new Set(violations.map((v) => v.playerId)))
        this.trim.run({ playerId, skip: this.keptPerPlayer - 1 });
      return stored;
    });
  }

  /** The newest `limit` violations of a player, oldest first. */
  recent(playerId: string, limit: number): StoredViolation[] {
    return this.latest.all(playerId, limit).map(toViolation).reverse();
  }

  /** The violations of one traffic entry's exchange, in the order they were found. */
  forTraffic(trafficId: number): StoredViolation[] {
    return this.byTraffic.all(trafficId).map(toViolation);
  }
}
