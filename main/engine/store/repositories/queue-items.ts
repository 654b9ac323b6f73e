/**
 * The items of each queue, in order. Order is a sparse integer label `pos`, clustered with the
 * queue key, so every read here is an indexed point lookup or a range scan of the rows it returns:
 * a window costs O(window + log n) whatever the queue's length. `item` is the item's wire JSON.
 */
import type { SqliteDatabase } from '../database.js';

/** Item ids are `item-<n>`, n from the queue's own sequence; the table keeps n. */
export const itemIdOf = (seq: number): string => `item-${seq}`;

/** The n of `item-<n>`, or null for an id this server never hands out. */
export function itemSeqOf(itemId: string): number | null {
  const match = /^item-([1-9]\d{0,14})$/.exec(itemId);
  return match ? Number(match[1]) : null;
}

/** Rows are inserted in batches: one statement per row costs more than the row itself. */
const BATCH = 256;

export interface ItemRow {
  pos: number;
  item_id: string;
  item: string;
}

/** Rows as tuples, the cheapest shape better-sqlite3 reads: windows and rebalances read many. */
export type ItemTuple = [pos: number, seq: number, item: string];

export class QueueItemRepository {
  private readonly firstStmt;
  private readonly lastStmt;
  private readonly byIdStmt;
  private readonly afterStmt;
  private readonly pageStmt;
  private readonly rankStmt;
  private readonly idsStmt;
  private readonly orderedIdsStmt;
  private readonly fromStartStmt;
  private readonly fromItemStmt;
  private readonly beforeStmt;
  private readonly afterManyStmt;
  private readonly aroundStmts = new Map<number, { all(...args: number[]): ItemTuple[] }>();
  private readonly db: SqliteDatabase;
  private readonly insertStmt;
  private readonly insertBatchStmt;
  private readonly deleteAtStmt;
  private readonly deleteAllStmt;
  private readonly deleteFirstStmt;
  private readonly hasStmt;
  private readonly copyStmt;

  constructor(db: SqliteDatabase) {
    this.db = db;
    const cols = "pos, 'item-' || item_seq AS item_id, item";
    this.firstStmt = db.prepare<[number], ItemRow>(
      `SELECT ${cols} FROM queue_items WHERE queue_key = ? ORDER BY pos LIMIT 1`,
    );
    this.lastStmt = db.prepare<[number], ItemRow>(
      `SELECT ${cols} FROM queue_items WHERE queue_key = ? ORDER BY pos DESC LIMIT 1`,
    );
    this.byIdStmt = db.prepare<[number, number], ItemRow>(
      `SELECT ${cols} FROM queue_items WHERE queue_key = ? AND item_seq = ?`,
    );
    const tuple = 'SELECT pos, item_seq, item FROM queue_items WHERE queue_key = ?';
    // A bound LIMIT costs SQLite several times the read of a short window, so each limit gets
    // its own statement with the number written in (window sizes are few and small).
    this.fromStartStmt = limited((n) => db.prepare<[number], ItemTuple>(`${tuple} ORDER BY pos LIMIT ${n}`).raw());
    // The item and those after it in one statement: the id lookup is a subquery on its index.
    this.fromItemStmt = limited((n) =>
      db
        .prepare<[number, number, number], ItemTuple>(
          `${tuple} AND pos >= (SELECT pos FROM queue_items WHERE queue_key = ? AND item_seq = ?) ORDER BY pos LIMIT ${n}`,
        )
        .raw(),
    );
    this.beforeStmt = limited((n) =>
      db.prepare<[number, number], ItemTuple>(`${tuple} AND pos < ? ORDER BY pos DESC LIMIT ${n}`).raw(),
    );
    this.afterManyStmt = limited((n) =>
      db.prepare<[number, number], ItemTuple>(`${tuple} AND pos > ? ORDER BY pos LIMIT ${n}`).raw(),
    );
    this.afterStmt = db.prepare<[number, number], ItemRow>(
      `SELECT ${cols} FROM queue_items WHERE queue_key = ? AND pos > ? ORDER BY pos LIMIT 1`,
    );
    this.pageStmt = db.prepare<[number, number, number], ItemRow>(
      `SELECT ${cols} FROM queue_items WHERE queue_key = ? ORDER BY pos LIMIT ? OFFSET ?`,
    );
    this.rankStmt = db.prepare<[number, number], { n: number }>(
      'SELECT COUNT(*) AS n FROM queue_items WHERE queue_key = ? AND pos < ?',
    );
    this.idsStmt = db.prepare<[number], { item_seq: number }>('SELECT item_seq FROM queue_items WHERE queue_key = ?');
    this.orderedIdsStmt = db
      .prepare<[number], number>('SELECT item_seq FROM queue_items WHERE queue_key = ? ORDER BY pos')
      .pluck();
    const insert = 'INSERT INTO queue_items (queue_key, pos, item_seq, item) VALUES ';
    this.insertStmt = db.prepare<[number, number, number, string]>(`${insert}(?, ?, ?, ?)`);
    this.insertBatchStmt = db.prepare<unknown[]>(insert + Array(BATCH).fill('(?, ?, ?, ?)').join(', '));
    this.deleteAtStmt = db.prepare<[number, number]>('DELETE FROM queue_items WHERE queue_key = ? AND pos = ?');
    this.deleteAllStmt = db.prepare<[number]>('DELETE FROM queue_items WHERE queue_key = ?');
    this.deleteFirstStmt = db.prepare<[number, number, number]>(
      'DELETE FROM queue_items WHERE queue_key = ? AND pos IN (SELECT pos FROM queue_items WHERE queue_key = ? ORDER BY pos LIMIT ?)',
    );
    this.hasStmt = db
      .prepare<[number, number], number>('SELECT 1 FROM queue_items WHERE queue_key = ? AND item_seq = ?')
      .pluck();
    this.copyStmt = db.prepare<[number, number, number, number]>(
      'INSERT INTO queue_items (queue_key, pos, item_seq, item) SELECT ?, pos, item_seq, item FROM queue_items WHERE queue_key = ? AND pos > ? ORDER BY pos LIMIT ?',
    );
  }

  first(queueKey: number): ItemRow | undefined {
    return this.firstStmt.get(queueKey);
  }

  last(queueKey: number): ItemRow | undefined {
    return this.lastStmt.get(queueKey);
  }

  byId(queueKey: number, itemId: string): ItemRow | undefined {
    const seq = itemSeqOf(itemId);
    return seq === null ? undefined : this.byIdStmt.get(queueKey, seq);
  }

  /** The item right after `pos`. */
  after(queueKey: number, pos: number): ItemRow | undefined {
    return this.afterStmt.get(queueKey, pos);
  }

  /**
   * Up to `limit` items from `itemId` on (the queue's first when null), the item itself first;
   * none when the queue has no such item.
   */
  fromItem(queueKey: number, itemId: string | null, limit: number): ItemTuple[] {
    if (itemId === null) return this.fromStartStmt(limit).all(queueKey);
    const seq = itemSeqOf(itemId);
    return seq === null ? [] : this.fromItemStmt(limit).all(queueKey, queueKey, seq);
  }

  /**
   * An item's window in one indexed range read, in queue order: from the `previous + 1`th item
   * before it (or the queue's first, when fewer come before it) on, at most `previous + upcoming + 3`
   * rows, so one row past each side of the window says whether it reaches that end. Answers the
   * rows and where the item stands among them; null when the queue has no such item.
   */
  around(
    queueKey: number,
    itemId: string,
    previous: number,
    upcoming: number,
  ): { rows: ItemTuple[]; anchor: number } | null {
    const seq = itemSeqOf(itemId);
    if (seq === null) return null;
    const rows = this.aroundStmt(previous, upcoming).all(queueKey, queueKey, queueKey, seq);
    // The item is among the first `previous + 2` rows when the queue holds it.
    for (let k = 0; k < rows.length && k <= previous + 1; k++) if (rows[k]![1] === seq) return { rows, anchor: k };
    return null;
  }

  /** `around`'s statement for one pair of sizes (a bound LIMIT or OFFSET costs more than the read). */
  private aroundStmt(previous: number, upcoming: number) {
    const key = previous * 4096 + upcoming;
    let statement = this.aroundStmts.get(key);
    if (!statement) {
      // The start: the row `previous + 1` before the item, found walking back from it in the
      // index; none (fewer before it, or no such item) starts at the queue's first row.
      const start = `IFNULL((SELECT b.pos FROM queue_items b WHERE b.queue_key = ? AND b.pos < (SELECT a.pos FROM queue_items a WHERE a.queue_key = ? AND a.item_seq = ?) ORDER BY b.pos DESC LIMIT 1 OFFSET ${previous}), ${Number.MIN_SAFE_INTEGER})`;
      statement = this.db
        .prepare<number[], ItemTuple>(
          `SELECT pos, item_seq, item FROM queue_items WHERE queue_key = ? AND pos >= ${start} ORDER BY pos LIMIT ${previous + upcoming + 3}`,
        )
        .raw();
      // Players ask for a few sizes; a client sweeping them must not grow this without end.
      if (this.aroundStmts.size >= 256) this.aroundStmts.clear();
      this.aroundStmts.set(key, statement);
    }
    return statement;
  }

  /** Up to `limit` items before label `pos`, nearest first. */
  before(queueKey: number, pos: number, limit: number): ItemTuple[] {
    return this.beforeStmt(limit).all(queueKey, pos);
  }

  /** Up to `limit` items after label `pos`, in order. */
  afterMany(queueKey: number, pos: number, limit: number): ItemTuple[] {
    return this.afterManyStmt(limit).all(queueKey, pos);
  }

  /** For the editor's list: rows by ordinal. O(offset) in the index, which the editor can afford. */
  page(queueKey: number, offset: number, limit: number): ItemRow[] {
    return this.pageStmt.all(queueKey, limit, offset);
  }

  /** The ordinal (0-based index) of the item at `pos`. */
  rank(queueKey: number, pos: number): number {
    return this.rankStmt.get(queueKey, pos)!.n;
  }

  /** Whether the queue has an item with this id. */
  has(queueKey: number, itemId: string): boolean {
    const seq = itemSeqOf(itemId);
    return seq !== null && this.hasStmt.get(queueKey, seq) !== undefined;
  }

  /**
   * Copies up to `limit` of one queue's items, those after label `afterPos` (all when null), to
   * another queue under the same labels and ids (a step of a staged edit); answers how many.
   */
  copyAfter(fromKey: number, toKey: number, afterPos: number | null, limit: number): number {
    return this.copyStmt.run(toKey, fromKey, afterPos ?? -(2 ** 53), limit).changes;
  }

  ids(queueKey: number): Set<string> {
    return new Set(this.idsStmt.all(queueKey).map((r) => itemIdOf(r.item_seq)));
  }

  /** The queue's item ids in play order, without reading the items themselves. */
  orderedIds(queueKey: number): string[] {
    return this.orderedIdsStmt.all(queueKey).map(itemIdOf);
  }

  insert(queueKey: number, pos: number, itemId: string, item: string): void {
    this.insertStmt.run(queueKey, pos, mustSeq(itemId), item);
  }

  /** Inserts rows at the given labels (`labels[i]` for `rows[i]`), many per statement. */
  insertMany(queueKey: number, labels: readonly number[], rows: readonly { itemId: string; item: string }[]): void {
    let i = 0;
    const args: unknown[] = new Array(BATCH * 4);
    for (; i + BATCH <= rows.length; i += BATCH) {
      for (let j = 0; j < BATCH; j++) {
        const row = rows[i + j]!;
        args[j * 4] = queueKey;
        args[j * 4 + 1] = labels[i + j];
        args[j * 4 + 2] = mustSeq(row.itemId);
        args[j * 4 + 3] = row.item;
      }
      this.insertBatchStmt.run(...args);
    }
    for (; i < rows.length; i++) this.insert(queueKey, labels[i]!, rows[i]!.itemId, rows[i]!.item);
  }

  deleteAt(queueKey: number, pos: number): void {
    this.deleteAtStmt.run(queueKey, pos);
  }

  deleteAll(queueKey: number): void {
    this.deleteAllStmt.run(queueKey);
  }

  /** Deletes the queue's first `limit` items (a step of a long delete); answers how many went. */
  deleteFirst(queueKey: number, limit: number): number {
    return this.deleteFirstStmt.run(queueKey, queueKey, limit).changes;
  }
}

function mustSeq(itemId: string): number {
  const seq = itemSeqOf(itemId);
  if (seq === null) throw new Error(`${itemId} is not an item id of this server`);
  return seq;
}

/** Statements by LIMIT, prepared on first use. */
function limited<S>(prepare: (limit: number) => S): (limit: number) => S {
  const statements = new Map<number, S>();
  return (limit) => {
    const n = Math.max(0, Math.floor(limit));
    let statement = statements.get(n);
    if (!statement) statements.set(n, (statement = prepare(n)));
    return statement;
  };
}
