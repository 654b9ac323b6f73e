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

/** Rows as tuples, the cheapest shape better-sqlite3 reads: rebalances read many. */
export type ItemTuple = [pos: number, seq: number, item: string];

/**
 * An item window as one row: whether it reaches the queue's beginning and end (1 or 0), its item
 * ids joined by commas (ids never hold one), and the whole answer body (docs/cloud-queue-server.md)
 * as UTF-8 bytes, written by SQLite around the items' stored JSON.
 */
export type JoinedWindow = [atBeginning: number, atEnd: number, itemIds: string, body: Buffer];

/** The versions a window's body names, as the queue's head holds them now. */
export interface WindowVersions {
  contextVersion: number;
  queueVersion: number;
}

export class QueueItemRepository {
  private readonly firstStmt;
  private readonly lastStmt;
  private readonly byIdStmt;
  private readonly afterStmt;
  private readonly pageStmt;
  private readonly rankStmt;
  private readonly idsStmt;
  private readonly orderedIdsStmt;
  private readonly beforeStmt;
  private readonly afterManyStmt;
  private readonly windowStmts = new Map<number, { get(...args: (number | string)[]): JoinedWindow | undefined }>();
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
    this.beforeStmt = limited((n) =>
      db.prepare<[number, number], ItemTuple>(`${tuple} AND pos < ? ORDER BY pos DESC LIMIT ${n}`).raw(),
    );
    this.afterManyStmt = limited((n) =>
      db.prepare<[number, number], ItemTuple>(`${tuple} AND pos > ? ORDER BY pos LIMIT ${n}`).raw(),
    );
    this.afterStmt = db.prepare<[number, number], ItemRow>(
      `SELECT ${cols} FROM queue_items WHERE queue_key = ? AND pos > ? ORDER BY pos LIMIT 1`,
    );
    // Rows up to an offset are counted over the slim index (migration 19), not over the items.
    this.pageStmt = db.prepare<[number, number, number, number], ItemRow>(
      `SELECT ${cols} FROM queue_items WHERE queue_key = ? AND pos >= (SELECT pos FROM queue_items INDEXED BY queue_items_by_pos WHERE queue_key = ? ORDER BY pos LIMIT 1 OFFSET ?) ORDER BY pos LIMIT ?`,
    );
    this.rankStmt = db.prepare<[number, number], { n: number }>(
      'SELECT COUNT(*) AS n FROM queue_items INDEXED BY queue_items_by_pos WHERE queue_key = ? AND pos < ?',
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
   * An item's window (the queue's first item's, for `itemId` null) as SQLite joins it, in one
   * statement of indexed range reads: the anchor found by its id, the row `previous + 1` before it
   * and the row `upcoming + 1` after it found walking the primary key (none: the window reaches
   * that end), and the rows between them read once, their ids joined into one string and their
   * items into the answer's bytes. Undefined when the queue has no such item (or, for null, no
   * item at all).
   *
   * The body is a BLOB so that it reaches JavaScript as bytes: no 5 kB string made from the row,
   * none measured again for its Content-Length and none encoded again on its way to the socket
   * (docs/decisions/perf-cold-windows.md, eighth round).
   */
  window(
    queueKey: number,
    itemId: string | null,
    previous: number,
    upcoming: number,
    versions: WindowVersions,
  ): JoinedWindow | undefined {
    // Bound as text: a number would be bound as a REAL and written `7.0`.
    const contextVersion = String(versions.contextVersion);
    const queueVersion = String(versions.queueVersion);
    if (itemId === null)
      return this.windowStmt(true, previous, upcoming).get(
        contextVersion,
        queueVersion,
        queueKey,
        queueKey,
        queueKey,
        queueKey,
      );
    const seq = itemSeqOf(itemId);
    return seq === null
      ? undefined
      : this.windowStmt(false, previous, upcoming).get(
          contextVersion,
          queueVersion,
          queueKey,
          seq,
          queueKey,
          queueKey,
          queueKey,
        );
  }

  /** `window`'s statement for one anchor kind and pair of sizes (a bound LIMIT or OFFSET costs more than the read). */
  private windowStmt(fromStart: boolean, previous: number, upcoming: number) {
    const key = (previous * 4096 + upcoming) * 2 + (fromStart ? 1 : 0);
    let statement = this.windowStmts.get(key);
    if (!statement) {
      const anchor = fromStart
        ? 'SELECT pos FROM queue_items WHERE queue_key = ? ORDER BY pos LIMIT 1'
        : 'SELECT pos FROM queue_items WHERE queue_key = ? AND item_seq = ?';
      // `b` materialized: flattened, SQLite walked to each end twice (once for the range, once for
      // the flags). The group_concats take the rows in the order the join reads them, the primary
      // key's: an ORDER BY inside group_concat would sort them again (a third of the read's cost
      // here). item-window.test.ts holds the order and the bytes to the array model after edits.
      // The versions are bound as decimal text and the items are stored JSON: nothing in the body
      // needs escaping. Without an anchor `b` is empty, the join has no row, and HAVING leaves
      // none of the aggregate's.
      statement = this.db
        .prepare<(number | string)[], JoinedWindow>(
          `WITH v AS (SELECT ? AS context_version, ? AS queue_version), a AS (${anchor}),
          b AS MATERIALIZED (SELECT
            (SELECT pos FROM queue_items WHERE queue_key = ? AND pos < a.pos ORDER BY pos DESC LIMIT 1 OFFSET ${previous}) AS lo,
            (SELECT pos FROM queue_items WHERE queue_key = ? AND pos > a.pos ORDER BY pos LIMIT 1 OFFSET ${upcoming}) AS hi
            FROM a)
          SELECT b.lo IS NULL, b.hi IS NULL, group_concat('item-' || w.item_seq),
            CAST('{"includesBeginningOfQueue":' || iif(b.lo IS NULL, 'true', 'false') ||
              ',"includesEndOfQueue":' || iif(b.hi IS NULL, 'true', 'false') ||
              ',"contextVersion":"' || v.context_version || '","queueVersion":"' || v.queue_version ||
              '","items":[' || group_concat(w.item, ',') || ']}' AS BLOB)
          FROM v, b JOIN queue_items AS w
            ON w.queue_key = ? AND w.pos > IFNULL(b.lo, ${Number.MIN_SAFE_INTEGER}) AND w.pos < IFNULL(b.hi, ${Number.MAX_SAFE_INTEGER})
          HAVING count(*) > 0`,
        )
        .raw();
      // Players ask for a few sizes; a client sweeping them must not grow this without end.
      if (this.windowStmts.size >= 256) this.windowStmts.clear();
      this.windowStmts.set(key, statement);
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

  /** For the editor's list: rows by ordinal. O(offset) in the slim index: 30–40 ms at a million. */
  page(queueKey: number, offset: number, limit: number): ItemRow[] {
    return this.pageStmt.all(queueKey, queueKey, offset, limit);
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
