/** timePlayed reports (docs/contract/platform.md §2.3) as the cloud queue server received them, per queue and item. */
import { transactor, type SqliteDatabase, type Transact } from '../database.js';

export interface TimePlayedRecord {
  seq: number;
  itemId: string;
  playerId: string | null;
  receivedAt: number;
  type: string;
  /** The report item exactly as posted. */
  report: Record<string, unknown>;
}

export interface ItemReportSummary {
  itemId: string;
  count: number;
  finals: number;
  lastReceivedAt: number;
}

interface Row {
  seq: number;
  item_id: string;
  player_id: string | null;
  received_at: number;
  type: string;
  report: string;
}

const toRecord = (row: Row): TimePlayedRecord => ({
  seq: row.seq,
  itemId: row.item_id,
  playerId: row.player_id,
  receivedAt: row.received_at,
  type: row.type,
  report: JSON.parse(row.report) as Record<string, unknown>,
});

export class TimePlayedRepository {
  private readonly insertStmt;
  private readonly recentStmt;
  private readonly forItemStmt;
  private readonly summaryStmt;
  private readonly transact: Transact;

  constructor(db: SqliteDatabase) {
    this.transact = transactor(db);
    this.insertStmt = db.prepare<[number, string, string | null, number, string, string]>(
      'INSERT INTO time_played (queue_key, item_id, player_id, received_at, type, report) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.recentStmt = db.prepare<[number, number], Row>('SELECT * FROM time_played WHERE queue_key = ? ORDER BY seq DESC LIMIT ?');
    this.forItemStmt = db.prepare<[number, string, number], Row>(
      'SELECT * FROM time_played WHERE queue_key = ? AND item_id = ? ORDER BY seq DESC LIMIT ?',
    );
    // json_each keeps this one statement for any number of ids (a page of the editor's list).
    this.summaryStmt = db.prepare<[number, string], { item_id: string; count: number; finals: number; last: number }>(
      `SELECT item_id, COUNT(*) AS count, SUM(type = 'final') AS finals, MAX(received_at) AS last FROM time_played
       WHERE queue_key = ? AND item_id IN (SELECT value FROM json_each(?)) GROUP BY item_id`,
    );
  }

  /** Stores the reports of one POST together; answers them with their sequence numbers. */
  addAll(queueKey: number, records: readonly Omit<TimePlayedRecord, 'seq'>[]): TimePlayedRecord[] {
    return this.transact(() =>
      records.map((record) => {
        const { lastInsertRowid } = this.insertStmt.run(queueKey, record.itemId, record.playerId, record.receivedAt, record.type, JSON.stringify(record.report));
        return { ...record, seq: Number(lastInsertRowid) };
      }),
    );
  }

  /** Newest first; for one item when `itemId` is given. */
  recent(queueKey: number, limit: number, itemId?: string): TimePlayedRecord[] {
    const rows = itemId === undefined ? this.recentStmt.all(queueKey, limit) : this.forItemStmt.all(queueKey, itemId, limit);
    return rows.map(toRecord);
  }

  summaries(queueKey: number, itemIds: readonly string[]): ItemReportSummary[] {
    if (itemIds.length === 0) return [];
    return this.summaryStmt
      .all(queueKey, JSON.stringify(itemIds))
      .map((r) => ({ itemId: r.item_id, count: r.count, finals: r.finals, lastReceivedAt: r.last }));
  }
}
