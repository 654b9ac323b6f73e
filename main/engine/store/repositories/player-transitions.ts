/** Player transitions, newest kept up to a cap per player so the table never grows without end. */
import type { SqliteDatabase } from '../database.js';

export interface StoredTransition {
  seq: number;
  playerId: string;
  groupId: string;
  at: number;
  from: string;
  to: string;
  event: string;
  cause: string;
  transition: string;
  requestId: string | null;
  detail: string | null;
}

interface Row {
  seq: number;
  player_id: string;
  group_id: string;
  at: number;
  from_state: string;
  to_state: string;
  event: string;
  cause: string;
  transition: string;
  request_id: string | null;
  detail: string | null;
}

const toTransition = (r: Row): StoredTransition => ({
  seq: r.seq,
  playerId: r.player_id,
  groupId: r.group_id,
  at: r.at,
  from: r.from_state,
  to: r.to_state,
  event: r.event,
  cause: r.cause,
  transition: r.transition,
  requestId: r.request_id,
  detail: r.detail,
});

export const TRANSITIONS_KEPT_PER_PLAYER = 5_000;

export class PlayerTransitionRepository {
  private readonly insert;
  private readonly latest;
  private readonly byRequest;
  private readonly trim;
  private readonly newestSeq;
  private inserts = 0;

  constructor(db: SqliteDatabase) {
    this.insert = db.prepare<
      [string, string, number, string, string, string, string, string, string | null, string | null]
    >(
      `INSERT INTO player_transitions (player_id, group_id, at, from_state, to_state, event, cause, transition, request_id, detail)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.latest = db.prepare<[string, number], Row>(
      'SELECT * FROM player_transitions WHERE player_id = ? ORDER BY seq DESC LIMIT ?',
    );
    this.newestSeq = db.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM player_transitions');
    this.byRequest = db.prepare<[string], Row>('SELECT * FROM player_transitions WHERE request_id = ? ORDER BY seq');
    this.trim = db.prepare<[string, string, number]>(
      'DELETE FROM player_transitions WHERE player_id = ? AND seq <= (SELECT seq FROM player_transitions WHERE player_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)',
    );
  }

  add(t: Omit<StoredTransition, 'seq'>): StoredTransition {
    const { lastInsertRowid } = this.insert.run(
      t.playerId,
      t.groupId,
      t.at,
      t.from,
      t.to,
      t.event,
      t.cause,
      t.transition,
      t.requestId,
      t.detail,
    );
    // Trimming on every insert would cost a query per transition; every few hundred is plenty.
    if (++this.inserts % 500 === 0) this.trim.run(t.playerId, t.playerId, TRANSITIONS_KEPT_PER_PLAYER);
    return { ...t, seq: Number(lastInsertRowid) };
  }

  /** The newest `limit` transitions of a player, oldest first. */
  recent(playerId: string, limit: number): StoredTransition[] {
    return this.latest.all(playerId, limit).map(toTransition).reverse();
  }

  /** The newest transition's seq of every player (0: none yet). */
  lastSeq(): number {
    return this.newestSeq.get()?.seq ?? 0;
  }

  causedBy(requestId: string): StoredTransition[] {
    return this.byRequest.all(requestId).map(toTransition);
  }
}
