/**
 * timePlayed reports (docs/contract/platform.md §2.3) as the cloud queue server received them, per queue and item.
 * A queue keeps its newest MAX_REPORTS_PER_QUEUE (docs/contract/console.md §9): a POST that would
 * take it past that deletes the oldest in its own transaction, so the count never passes it.
 */
import { transactor, type SqliteDatabase, type Transact } from '../database.js';

/** Reports kept per queue, the newest: hours of reports from a household's players, a few MB at most. */
export const MAX_REPORTS_PER_QUEUE = 10_000;
/** Queues whose count is held; past it, counts are let go and read again from the table. */
const COUNTS_HELD = 10_000;

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
  private readonly lastPerPlayerStmt;
  private readonly summaryStmt;
  private readonly trimStmt;
  private readonly dropOldestStmt;
  private readonly countStmt;
  private readonly transact: Transact;
  /**
   * Per queue, how many reports it has, once a POST has asked: trimming is asked for only past the
   * cap, and then drops exactly the oldest reports past it, walking as many index entries as it
   * drops. (Finding the cap's boundary from the newest end walked 10,000 entries, about 200 µs,
   * on every POST to a queue at its cap.) Exact because reports leave a queue only by a trim (which
   * leaves the cap) or with the queue itself (its key is never reused), and a queue's reports move
   * only to a row no POST has reached yet (`QueuesRepository.publish`). A POST inside someone
   * else's transaction may be rolled back after it returns: that one trims from the newest end,
   * which is right whatever the count, and lets its count go, to be read again next time.
   */
  private readonly counts = new Map<number, number>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly keptPerQueue = MAX_REPORTS_PER_QUEUE,
  ) {
    this.transact = transactor(db);
    this.insertStmt = db.prepare<[number, string, string | null, number, string, string]>(
      'INSERT INTO time_played (queue_key, item_id, player_id, received_at, type, report) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.recentStmt = db.prepare<[number, number], Row>(
      'SELECT * FROM time_played WHERE queue_key = ? ORDER BY seq DESC LIMIT ?',
    );
    this.forItemStmt = db.prepare<[number, string, number], Row>(
      'SELECT * FROM time_played WHERE queue_key = ? AND item_id = ? ORDER BY seq DESC LIMIT ?',
    );
    // Each player's newest: the MAX per group walks the queue's reports once (at most its cap).
    this.lastPerPlayerStmt = db.prepare<[number, number], Row>(
      `SELECT t.* FROM time_played t JOIN (
         SELECT MAX(seq) AS seq FROM time_played WHERE queue_key = ? GROUP BY player_id) newest ON t.seq = newest.seq
       ORDER BY t.seq DESC LIMIT ?`,
    );
    // json_each keeps this one statement for any number of ids (a page of the editor's list).
    this.summaryStmt = db.prepare<[number, string], { item_id: string; count: number; finals: number; last: number }>(
      `SELECT item_id, COUNT(*) AS count, SUM(type = 'final') AS finals, MAX(received_at) AS last FROM time_played
       WHERE queue_key = ? AND item_id IN (SELECT value FROM json_each(?)) GROUP BY item_id`,
    );
    this.countStmt = db.prepare<[number], number>('SELECT COUNT(*) FROM time_played WHERE queue_key = ?').pluck();
    // Older than the queue's N-th newest; nothing while it has fewer (the subquery is NULL).
    // time_played_by_queue walks at most N entries of the queue's own.
    this.trimStmt = db.prepare<{ queueKey: number; skip: number }>(
      `DELETE FROM time_played WHERE queue_key = @queueKey AND seq < (
         SELECT seq FROM time_played WHERE queue_key = @queueKey ORDER BY seq DESC LIMIT 1 OFFSET @skip)`,
    );
    // The queue's `drop` oldest (at least one), from the old end of the same index: up to the
    // `drop`-th oldest's seq. (`seq IN (… LIMIT @drop)` built a table of them first: 25 against
    // 10 µs a POST at the cap, insert included.)
    this.dropOldestStmt = db.prepare<{ queueKey: number; drop: number }>(
      `DELETE FROM time_played WHERE queue_key = @queueKey AND seq <= (
         SELECT seq FROM time_played WHERE queue_key = @queueKey ORDER BY seq LIMIT 1 OFFSET @drop - 1)`,
    );
  }

  /**
   * Stores the reports of one POST together, and lets the queue's oldest go past its cap in the
   * same transaction; answers them with their sequence numbers.
   */
  addAll(queueKey: number, records: readonly Omit<TimePlayedRecord, 'seq'>[]): TimePlayedRecord[] {
    const nested = this.db.inTransaction;
    try {
      return this.transact(() => {
        const stored = records.map((record) => {
          const { lastInsertRowid } = this.insertStmt.run(
            queueKey,
            record.itemId,
            record.playerId,
            record.receivedAt,
            record.type,
            JSON.stringify(record.report),
          );
          return { ...record, seq: Number(lastInsertRowid) };
        });
        const count = this.countAfterInsert(queueKey, records.length);
        if (count > this.keptPerQueue) {
          if (nested) this.trimStmt.run({ queueKey, skip: this.keptPerQueue - 1 });
          else this.dropOldestStmt.run({ queueKey, drop: count - this.keptPerQueue });
        }
        if (nested) this.counts.delete(queueKey);
        else this.counts.set(queueKey, Math.min(count, this.keptPerQueue));
        return stored;
      });
    } catch (error) {
      // Rolled back, its commit included: the count is read again next time.
      this.counts.delete(queueKey);
      throw error;
    }
  }

  /** The queue's count once `added` more are in: held, or read (with them) from the table. */
  private countAfterInsert(queueKey: number, added: number): number {
    const held = this.counts.get(queueKey);
    if (held !== undefined) return held + added;
    if (this.counts.size >= COUNTS_HELD) this.counts.clear();
    return this.countStmt.get(queueKey)!;
  }

  /** How many reports the queue keeps now. */
  count(queueKey: number): number {
    return this.countStmt.get(queueKey)!;
  }

  /** Newest first; for one item when `itemId` is given. */
  recent(queueKey: number, limit: number, itemId?: string): TimePlayedRecord[] {
    const rows =
      itemId === undefined ? this.recentStmt.all(queueKey, limit) : this.forItemStmt.all(queueKey, itemId, limit);
    return rows.map(toRecord);
  }

  /** Each player's newest report (one for all that sent no X-Player-Id), newest first, at most `limit`. */
  lastPerPlayer(queueKey: number, limit: number): TimePlayedRecord[] {
    return this.lastPerPlayerStmt.all(queueKey, limit).map(toRecord);
  }

  summaries(queueKey: number, itemIds: readonly string[]): ItemReportSummary[] {
    if (itemIds.length === 0) return [];
    return this.summaryStmt
      .all(queueKey, JSON.stringify(itemIds))
      .map((r) => ({ itemId: r.item_id, count: r.count, finals: r.finals, lastReceivedAt: r.last }));
  }
}
