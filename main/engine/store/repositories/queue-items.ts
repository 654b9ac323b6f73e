/**
 * The items of each queue, in order. Order is a sparse integer label `pos`, clustered with the
 * queue key, so every read here is an indexed point lookup or a range scan of the rows it returns:
 * a window costs O(window + log n) whatever the queue's length. `item` is the item's wire JSON.
 */
import type { SqliteDatabase } from '../database.js';

export interface ItemRow {
  pos: number;
  item_id: string;
  item: string;
}

export class QueueItemRepository {
  private readonly firstStmt;
  private readonly lastStmt;
  private readonly byIdStmt;
  private readonly beforeStmt;
  private readonly fromStmt;
  private readonly afterStmt;
  private readonly pageStmt;
  private readonly rankStmt;
  private readonly idsStmt;
  private readonly insertStmt;
  private readonly deleteAtStmt;
  private readonly deleteAllStmt;

  constructor(db: SqliteDatabase) {
    const cols = 'pos, item_id, item';
    this.firstStmt = db.prepare<[number], ItemRow>(`SELECT ${cols} FROM queue_items WHERE queue_key = ? ORDER BY pos LIMIT 1`);
    this.lastStmt = db.prepare<[number], ItemRow>(`SELECT ${cols} FROM queue_items WHERE queue_key = ? ORDER BY pos DESC LIMIT 1`);
    this.byIdStmt = db.prepare<[number, string], ItemRow>(`SELECT ${cols} FROM queue_items WHERE queue_key = ? AND item_id = ?`);
    this.beforeStmt = db.prepare<[number, number, number], ItemRow>(
      `SELECT ${cols} FROM queue_items WHERE queue_key = ? AND pos < ? ORDER BY pos DESC LIMIT ?`,
    );
    this.fromStmt = db.prepare<[number, number, number], ItemRow>(
      `SELECT ${cols} FROM queue_items WHERE queue_key = ? AND pos >= ? ORDER BY pos LIMIT ?`,
    );
    this.afterStmt = db.prepare<[number, number], ItemRow>(`SELECT ${cols} FROM queue_items WHERE queue_key = ? AND pos > ? ORDER BY pos LIMIT 1`);
    this.pageStmt = db.prepare<[number, number, number], ItemRow>(`SELECT ${cols} FROM queue_items WHERE queue_key = ? ORDER BY pos LIMIT ? OFFSET ?`);
    this.rankStmt = db.prepare<[number, number], { n: number }>('SELECT COUNT(*) AS n FROM queue_items WHERE queue_key = ? AND pos < ?');
    this.idsStmt = db.prepare<[number], { item_id: string }>('SELECT item_id FROM queue_items WHERE queue_key = ?');
    this.insertStmt = db.prepare<[number, number, string, string]>('INSERT INTO queue_items (queue_key, pos, item_id, item) VALUES (?, ?, ?, ?)');
    this.deleteAtStmt = db.prepare<[number, number]>('DELETE FROM queue_items WHERE queue_key = ? AND pos = ?');
    this.deleteAllStmt = db.prepare<[number]>('DELETE FROM queue_items WHERE queue_key = ?');
  }

  first(queueKey: number): ItemRow | undefined {
    return this.firstStmt.get(queueKey);
  }

  last(queueKey: number): ItemRow | undefined {
    return this.lastStmt.get(queueKey);
  }

  byId(queueKey: number, itemId: string): ItemRow | undefined {
    return this.byIdStmt.get(queueKey, itemId);
  }

  /** Up to `limit` items before `pos`, nearest first. */
  before(queueKey: number, pos: number, limit: number): ItemRow[] {
    return this.beforeStmt.all(queueKey, pos, limit);
  }

  /** Up to `limit` items from `pos` on (including the one at `pos`), in order. */
  from(queueKey: number, pos: number, limit: number): ItemRow[] {
    return this.fromStmt.all(queueKey, pos, limit);
  }

  /** The item right after `pos`. */
  after(queueKey: number, pos: number): ItemRow | undefined {
    return this.afterStmt.get(queueKey, pos);
  }

  /** For the editor's list: rows by ordinal. O(offset) in the index, which the editor can afford. */
  page(queueKey: number, offset: number, limit: number): ItemRow[] {
    return this.pageStmt.all(queueKey, limit, offset);
  }

  /** The ordinal (0-based index) of the item at `pos`. */
  rank(queueKey: number, pos: number): number {
    return this.rankStmt.get(queueKey, pos)!.n;
  }

  ids(queueKey: number): Set<string> {
    return new Set(this.idsStmt.all(queueKey).map((r) => r.item_id));
  }

  insert(queueKey: number, pos: number, itemId: string, item: string): void {
    this.insertStmt.run(queueKey, pos, itemId, item);
  }

  deleteAt(queueKey: number, pos: number): void {
    this.deleteAtStmt.run(queueKey, pos);
  }

  deleteAll(queueKey: number): void {
    this.deleteAllStmt.run(queueKey);
  }
}
