/**
 * Queues of the reference cloud queue server: what a queue is apart from its items (name,
 * versions, context, access token). JSON columns hold the context objects as the wire shows them.
 */
import type { SqliteDatabase } from '../database.js';

export interface QueueRecord {
  /** Internal integer key; items and reports refer to it. */
  key: number;
  id: string;
  name: string;
  createdAt: number;
  queueVersion: number;
  contextVersion: number;
  /** Item ids are `item-<seq>`; the sequence only grows, so ids are never reused. */
  nextItemSeq: number;
  itemCount: number;
  container: Record<string, unknown>;
  playbackPolicies: Record<string, unknown>;
  reports: Record<string, unknown>;
  accessToken: string;
  tokenIssuedAt: number;
  tokenExpiresAt: number;
}

/** What the cloud queue server needs on every request, without parsing any JSON. */
export type QueueHead = Pick<
  QueueRecord,
  'key' | 'id' | 'queueVersion' | 'contextVersion' | 'itemCount' | 'accessToken' | 'tokenExpiresAt'
>;

interface Row {
  key: number;
  id: string;
  name: string;
  created_at: number;
  queue_version: number;
  context_version: number;
  next_item_seq: number;
  item_count: number;
  container: string;
  playback_policies: string;
  reports: string;
  access_token: string;
  token_issued_at: number;
  token_expires_at: number;
}

const toRecord = (row: Row): QueueRecord => ({
  key: row.key,
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  queueVersion: row.queue_version,
  contextVersion: row.context_version,
  nextItemSeq: row.next_item_seq,
  itemCount: row.item_count,
  container: JSON.parse(row.container) as Record<string, unknown>,
  playbackPolicies: JSON.parse(row.playback_policies) as Record<string, unknown>,
  reports: JSON.parse(row.reports) as Record<string, unknown>,
  accessToken: row.access_token,
  tokenIssuedAt: row.token_issued_at,
  tokenExpiresAt: row.token_expires_at,
});

export type NewQueue = Omit<QueueRecord, 'key'>;

/** The columns a queue writes, as named parameters (`@name`) shared by INSERT and UPDATE. */
type Params = Omit<Row, 'key'> & { key?: number };

const toParams = (queue: NewQueue & { key?: number }): Params => ({
  key: queue.key,
  id: queue.id,
  name: queue.name,
  created_at: queue.createdAt,
  queue_version: queue.queueVersion,
  context_version: queue.contextVersion,
  next_item_seq: queue.nextItemSeq,
  item_count: queue.itemCount,
  container: JSON.stringify(queue.container),
  playback_policies: JSON.stringify(queue.playbackPolicies),
  reports: JSON.stringify(queue.reports),
  access_token: queue.accessToken,
  token_issued_at: queue.tokenIssuedAt,
  token_expires_at: queue.tokenExpiresAt,
});

const WRITTEN = [
  'name',
  'queue_version',
  'context_version',
  'next_item_seq',
  'item_count',
  'container',
  'playback_policies',
  'reports',
  'access_token',
  'token_issued_at',
  'token_expires_at',
];

/** The head of a record, as the cloud queue server reads it on every request. */
const headOf = (queue: QueueRecord): QueueHead => ({
  key: queue.key,
  id: queue.id,
  queueVersion: queue.queueVersion,
  contextVersion: queue.contextVersion,
  itemCount: queue.itemCount,
  accessToken: queue.accessToken,
  tokenExpiresAt: queue.tokenExpiresAt,
});

/**
 * Ids of rows that are no queue yet or any more: the items of a big edit being staged, or the
 * items a staged edit replaced, going in steps (see `cloud-queue/staged-writes.ts`). No queue id
 * starts so; `list` leaves them out and a start deletes any a stop left behind.
 */
export const SHADOW_ID_PREFIX = '~';

export class QueueRepository {
  /**
   * Heads by queue id. Every write of a queue goes through this repository, so the cache is
   * always the table's truth, and a player's request costs no read for it.
   */
  private readonly heads = new Map<string, QueueHead>();
  private readonly all;
  private readonly one;
  private readonly headById;
  private readonly insert;
  private readonly update;
  private readonly remove;
  private readonly shadowRows;
  private readonly rename;
  private readonly moveReports;
  private readonly publishRow;

  constructor(db: SqliteDatabase) {
    this.all = db.prepare<[], Row>(
      `SELECT * FROM queues WHERE substr(id, 1, 1) <> '${SHADOW_ID_PREFIX}' ORDER BY created_at, key`,
    );
    this.shadowRows = db.prepare<[], { key: number; id: string }>(
      `SELECT key, id FROM queues WHERE substr(id, 1, 1) = '${SHADOW_ID_PREFIX}'`,
    );
    this.rename = db.prepare<[string, number]>('UPDATE queues SET id = ? WHERE key = ?');
    this.moveReports = db.prepare<[number, number]>('UPDATE time_played SET queue_key = ? WHERE queue_key = ?');
    this.one = db.prepare<[string], Row>('SELECT * FROM queues WHERE id = ?');
    this.headById = db.prepare<
      [string],
      Pick<Row, 'key' | 'id' | 'queue_version' | 'context_version' | 'item_count' | 'access_token' | 'token_expires_at'>
    >(
      'SELECT key, id, queue_version, context_version, item_count, access_token, token_expires_at FROM queues WHERE id = ?',
    );
    const columns = ['id', 'created_at', ...WRITTEN];
    this.insert = db.prepare<[Params]>(
      `INSERT INTO queues (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
    );
    this.update = db.prepare<[Params]>(
      `UPDATE queues SET ${WRITTEN.map((c) => `${c} = @${c}`).join(', ')} WHERE key = @key`,
    );
    this.remove = db.prepare<[number]>('DELETE FROM queues WHERE key = ?');
    this.publishRow = db.prepare<[Params]>(
      `UPDATE queues SET id = @id, created_at = @created_at, ${WRITTEN.map((c) => `${c} = @${c}`).join(', ')} WHERE key = @key`,
    );
  }

  /** Rows left by staged edits (see SHADOW_ID_PREFIX). */
  shadows(): { key: number; id: string }[] {
    return this.shadowRows.all();
  }

  /**
   * Makes the shadow row `shadowKey`, whose items a staged edit wrote, the queue `record` (inside
   * the caller's transaction, at the cost of a few row updates whatever the items' number). A queue
   * that had a row (`replaced`) becomes a shadow under `discardId`, its reports moved to the new
   * row; its old items are the caller's to delete. `record.key` becomes `shadowKey`.
   */
  publish(record: QueueRecord, shadowKey: number, replaced?: { discardId: string }): void {
    if (replaced) {
      this.rename.run(replaced.discardId, record.key);
      this.moveReports.run(shadowKey, record.key);
    }
    record.key = shadowKey;
    this.publishRow.run(toParams(record) as Params);
    this.heads.set(record.id, headOf(record));
  }

  list(): QueueRecord[] {
    return this.all.all().map(toRecord);
  }

  get(id: string): QueueRecord | undefined {
    const row = this.one.get(id);
    return row && toRecord(row);
  }

  head(id: string): QueueHead | undefined {
    const cached = this.heads.get(id);
    if (cached) return cached;
    const row = this.headById.get(id);
    if (!row) return undefined;
    const head: QueueHead = {
      key: row.key,
      id: row.id,
      queueVersion: row.queue_version,
      contextVersion: row.context_version,
      itemCount: row.item_count,
      accessToken: row.access_token,
      tokenExpiresAt: row.token_expires_at,
    };
    this.heads.set(id, head);
    return head;
  }

  create(queue: NewQueue): QueueRecord {
    const { key: _key, ...params } = toParams(queue);
    const result = this.insert.run(params);
    const created = { ...queue, key: Number(result.lastInsertRowid) };
    this.heads.delete(created.id);
    return created;
  }

  save(queue: QueueRecord): void {
    const { id: _id, created_at: _createdAt, ...params } = toParams(queue);
    this.update.run(params as Params);
    this.heads.set(queue.id, headOf(queue));
  }

  /** Drops what the cache holds of a queue (after a write was rolled back). */
  forget(id: string): void {
    this.heads.delete(id);
  }

  delete(queue: Pick<QueueRecord, 'key' | 'id'>): void {
    this.remove.run(queue.key);
    this.heads.delete(queue.id);
  }
}
