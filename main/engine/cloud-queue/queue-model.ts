/**
 * The queues of the reference cloud queue server and every edit to them (docs/contract/console.md §4, §7). Rules
 * kept here: every edit bumps `queueVersion` (context edits bump `contextVersion` too); item ids
 * are `item-<n>` from a per-queue sequence that only grows, so no id is ever reused; each edit is
 * one transaction, validated before anything is written, so a bad edit changes nothing. An edit of
 * many items is written in steps and shown in one such transaction (`staged-writes.ts`).
 *
 * A queue is deleted in steps of DELETE_STEP items with the event loop free between them
 * (docs/contract/console.md §9: no admin call holds the other listeners more than 250 ms; a
 * million items took 3.3 s in one statement). From the first step the queue is gone to every
 * reader (404 to players, not_found to edits); each step leaves the rows consistent, so a delete
 * cut short by the engine closing leaves a smaller queue that deleting again finishes.
 */
import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EngineEvents } from '../api/events.js';
import { EngineError } from '../api/errors.js';
import type {
  PlaybackPolicies,
  QueueContainer,
  QueueContext,
  QueueEditResult,
  QueueItem,
  QueueItemsPage,
  QueueSummary,
  QueueView,
  ReportSettings,
  Track,
} from '../api/queue-types.js';
import type { ItemRow } from '../store/repositories/queue-items.js';
import type { NewQueue, QueueHead, QueueRecord } from '../store/repositories/queues.js';
import type { Store } from '../store/store.js';
import { DEFAULT_CONTAINER_IMAGE_URL } from './track-defaults.js';
import { itemJson, itemOf, newRow, type ItemInput } from './item-rows.js';
import type { QueueInput } from './queue-input.js';
import { StagedWrites } from './staged-writes.js';
import {
  CONTAINER_SERVICE_ID,
  CURRENT_VERSION,
  DEFAULT_CONTAINER_TYPE,
  DEFAULT_PLAYBACK_POLICIES,
  DEFAULT_REPORTS,
  DEFAULT_TOKEN_LIFETIME_SEC,
} from './defaults.js';
import { insertFresh, insertRows, type Gap } from './ordering.js';
import { sampleTracks } from './samples.js';

export type { ItemInput } from './item-rows.js';
export type { QueueInput } from './queue-input.js';

export interface QueueModelOptions {
  store: Pick<Store, 'queues' | 'queueItems' | 'timePlayed' | 'transaction'>;
  clock: { now(): number };
  emit: (name: 'queues.changed', data: EngineEvents['queues.changed']) => void;
  /** The cloud queue listener's URL (known once it listens). */
  cloudQueueUrl: () => string;
  /** What runs between the steps of a long delete (tests make it a point they can stop at). */
  between?: () => Promise<unknown>;
}

/**
 * Items per step of a delete, so the listeners answer between steps. 10,000 a step held another
 * queue's GET /version 280–460 ms now and then on this machine (2 of 3 runs of large-queue.test.ts);
 * at 2,000 the delete's longest wait was under 50 ms, and a 1,000,000-item queue still goes in
 * about 3 s.
 */
export const DELETE_STEP = 2_000;

export class QueueModel {
  private readonly store: QueueModelOptions['store'];
  private readonly now: () => number;
  /** Queues being deleted: gone to every reader, their items going in steps. */
  private readonly deleting = new Set<string>();
  /** Set when the engine closes: a delete between two steps stops there, before the store is gone. */
  private closed = false;

  /** Edits of many items, written in steps and shown at once (see `staged-writes.ts`). */
  readonly writes: StagedWrites;

  constructor(private readonly options: QueueModelOptions) {
    this.store = options.store;
    this.now = () => Math.floor(options.clock.now());
    this.writes = new StagedWrites(this, options.store, options.between);
  }

  list(): QueueSummary[] {
    return this.store.queues
      .list()
      .filter((q) => !this.deleting.has(q.id))
      .map((q) => this.summary(q));
  }

  create(input: QueueInput): QueueSummary {
    const id = this.newQueueId();
    const record = this.transaction(id, () => {
      const created = this.store.queues.create(this.newRecord(id, input));
      const rows = (input.items ?? []).map((item) => newRow(created, item));
      insertFresh(this.store.queueItems, created.key, rows);
      created.itemCount = rows.length;
      this.store.queues.save(created);
      return created;
    });
    this.changed(record, 'created');
    return this.summary(record);
  }

  /** A new queue's row, without items (`id` may be a shadow's, see `staged-writes.ts`). */
  newRecord(id: string, input: Omit<QueueInput, 'items'>): NewQueue {
    const now = this.now();
    return {
      id,
      name: input.name ?? this.defaultName(),
      createdAt: now,
      queueVersion: 1,
      contextVersion: 1,
      nextItemSeq: 1,
      itemCount: 0,
      container: { type: DEFAULT_CONTAINER_TYPE, ...containerFields(input.container) },
      playbackPolicies: { ...DEFAULT_PLAYBACK_POLICIES, ...input.playbackPolicies },
      reports: { ...DEFAULT_REPORTS, ...input.reports },
      accessToken: newAccessToken(),
      tokenIssuedAt: now,
      tokenExpiresAt: now + (input.accessTokenLifetimeSec ?? DEFAULT_TOKEN_LIFETIME_SEC) * 1000,
    };
  }

  get(id: string): QueueView {
    const record = this.mustGet(id);
    const items = this.store.queueItems.page(record.key, 0, record.itemCount).map(parseItem);
    return {
      ...this.summary(record),
      container: this.container(record),
      playbackPolicies: policiesOf(record),
      reports: reportsOf(record),
      items,
    };
  }

  /** The item ids in play order (reading 100,000 whole items to learn their ids took a second). */
  itemIds(id: string): string[] {
    return this.store.queueItems.orderedIds(this.mustGet(id).key);
  }

  /** PATCH: `items` replaces the list (an item carrying an id the queue has keeps it); the rest merge. */
  update(id: string, patch: Omit<QueueInput, 'accessTokenLifetimeSec'>): QueueSummary {
    const record = this.mustEdit(id);
    const touched = Object.values(patch).some((value) => value !== undefined);
    if (!touched) return this.summary(record);
    this.transaction(id, () => {
      if (patch.items) this.replaceItems(record, patch.items);
      this.applyContext(record, patch);
      this.bump(record);
    });
    this.changed(record, 'edited');
    return this.summary(record);
  }

  /** The fields of a PATCH other than `items`, merged into `record` (contextVersion bumped if any). */
  applyContext(record: QueueRecord, patch: Omit<QueueInput, 'accessTokenLifetimeSec' | 'items'>): void {
    let contextChanged = false;
    if (patch.name !== undefined) {
      record.name = patch.name;
      contextChanged = true;
    }
    if (patch.playbackPolicies) {
      record.playbackPolicies = { ...record.playbackPolicies, ...patch.playbackPolicies };
      contextChanged = true;
    }
    if (patch.reports) {
      record.reports = { ...record.reports, ...patch.reports };
      contextChanged = true;
    }
    if (patch.container) {
      record.container = { ...record.container, ...containerFields(patch.container) };
      contextChanged = true;
    }
    if (contextChanged) record.contextVersion++;
  }

  /**
   * Deletes the queue, its items DELETE_STEP at a time with the event loop free between steps;
   * a queue of up to DELETE_STEP items goes at once, before this returns its promise.
   */
  async delete(id: string): Promise<void> {
    const record = this.mustEdit(id);
    this.deleting.add(id);
    try {
      // One new version for the whole delete: a queue found again after a delete cut short is
      // not the one any player knew.
      record.queueVersion++;
      for (;;) {
        const removed = this.transaction(id, () => {
          const count = this.store.queueItems.deleteFirst(record.key, DELETE_STEP);
          record.itemCount -= count;
          this.store.queues.save(record);
          return count;
        });
        if (removed < DELETE_STEP) break;
        await (this.options.between ?? nextTurn)();
        // Cut short, as a crash would: the store keeps a smaller queue (one version on), not a broken one.
        if (this.closed) return;
      }
      // Its reports go with it (a queue keeps a bounded number, see the repository).
      this.store.queues.delete(record);
    } finally {
      this.deleting.delete(id);
    }
    this.options.emit('queues.changed', {
      queueId: id,
      change: 'deleted',
      queueVersion: null,
      contextVersion: null,
      itemCount: 0,
    });
  }

  /**
   * The engine is closing: no delete takes another step. A delete nobody awaited (a test, a
   * command whose caller left) would otherwise write to a closed store, a rejection with no one
   * to hear it.
   */
  close(): void {
    this.closed = true;
  }

  issueToken(id: string, lifetimeSec = DEFAULT_TOKEN_LIFETIME_SEC): QueueSummary {
    const record = this.mustGet(id);
    const now = this.now();
    record.accessToken = newAccessToken();
    record.tokenIssuedAt = now;
    record.tokenExpiresAt = now + lifetimeSec * 1000;
    this.store.queues.save(record);
    this.changed(record, 'token');
    return this.summary(record);
  }

  /** `room`: see `insertRows` (a step of a longer generation plans the gap for all of it). */
  addItems(id: string, items: readonly ItemInput[], afterItemId?: string | null, room?: number): QueueEditResult {
    const record = this.mustEdit(id);
    const rows = this.transaction(id, () => {
      const gap = this.gapAfter(record, afterItemId);
      const fresh = items.map((item) => newRow(record, { track: item.track, policies: item.policies }));
      insertRows(this.store.queueItems, record.key, gap, fresh, room);
      record.itemCount += fresh.length;
      this.bump(record);
      return fresh;
    });
    this.changed(record, 'edited');
    return { ...this.editResult(record), itemIds: rows.map((r) => r.itemId) };
  }

  /** One edit of `count` sample tracks (the queue's next sample numbers); see `QueueGenerations` for N of them. */
  addSamples(id: string, count: number, afterItemId?: string | null, room?: number): QueueEditResult {
    const record = this.mustGet(id);
    return this.addItems(
      id,
      sampleTracks(record.nextItemSeq, count).map((track) => ({ track })),
      afterItemId,
      room,
    );
  }

  /** Refuses an anchor that is not there, before a generation starts (the edits check it again). */
  checkAnchor(id: string, afterItemId: string | null | undefined): void {
    this.gapAfter(this.mustEdit(id), afterItemId);
  }

  updateItem(
    id: string,
    itemId: string,
    change: { track?: Track; policies?: QueueItem['policies'] | null },
  ): QueueItem {
    const record = this.mustEdit(id);
    const row = this.mustGetItem(record, itemId);
    const old = parseItem(row);
    const policies = change.policies === null ? undefined : (change.policies ?? old.policies);
    const item = itemOf(itemId, change.track ?? old.track, policies);
    this.transaction(id, () => {
      this.store.queueItems.deleteAt(record.key, row.pos);
      this.store.queueItems.insert(record.key, row.pos, itemId, JSON.stringify(item));
      this.bump(record);
    });
    this.changed(record, 'edited');
    return item;
  }

  removeItems(id: string, itemIds: readonly string[]): QueueEditResult {
    const record = this.mustEdit(id);
    this.transaction(id, () => {
      const rows = this.mustGetItems(record, itemIds);
      for (const row of rows) this.store.queueItems.deleteAt(record.key, row.pos);
      record.itemCount -= rows.length;
      this.bump(record);
    });
    this.changed(record, 'edited');
    return this.editResult(record);
  }

  /** Moves the items, in their queue order, to after `afterItemId` (null: to the start). */
  moveItems(id: string, itemIds: readonly string[], afterItemId: string | null): QueueEditResult {
    const record = this.mustEdit(id);
    if (afterItemId !== null && itemIds.includes(afterItemId)) {
      throw new EngineError('invalid_input', `cannot move ${afterItemId} after itself`, { field: 'afterItemId' });
    }
    this.transaction(id, () => {
      const rows = this.mustGetItems(record, itemIds).sort((a, b) => a.pos - b.pos);
      for (const row of rows) this.store.queueItems.deleteAt(record.key, row.pos);
      const gap = this.gapAfter(record, afterItemId);
      insertRows(
        this.store.queueItems,
        record.key,
        gap,
        rows.map((r) => ({ itemId: r.item_id, item: r.item })),
      );
      this.bump(record);
    });
    this.changed(record, 'edited');
    return this.editResult(record);
  }

  itemsPage(id: string, offset = 0, limit = 200): QueueItemsPage {
    const record = this.mustGet(id);
    const rows = this.store.queueItems.page(record.key, offset, limit);
    const counts = new Map(
      this.store.timePlayed
        .summaries(
          record.key,
          rows.map((r) => r.item_id),
        )
        .map((s) => [s.itemId, s]),
    );
    return {
      queueId: record.id,
      queueVersion: String(record.queueVersion),
      total: record.itemCount,
      offset,
      items: rows.map((row, i) => {
        const summary = counts.get(row.item_id);
        const item = { ...parseItem(row), index: offset + i };
        return summary
          ? {
              ...item,
              reports: { count: summary.count, finals: summary.finals, lastReceivedAt: summary.lastReceivedAt },
            }
          : item;
      }),
    };
  }

  locate(id: string, itemId: string): { index: number; queueVersion: string } {
    const record = this.mustGet(id);
    const row = this.mustGetItem(record, itemId);
    return { index: this.store.queueItems.rank(record.key, row.pos), queueVersion: String(record.queueVersion) };
  }

  /** The queue's wire context (GET /context). */
  context(id: string): QueueContext | undefined {
    const record = this.deleting.has(id) ? undefined : this.store.queues.get(id);
    if (!record) return undefined;
    return {
      contextVersion: String(record.contextVersion),
      queueVersion: String(record.queueVersion),
      container: this.container(record),
      reports: reportsOf(record),
      playbackPolicies: policiesOf(record),
    };
  }

  /** What the server needs per request: key, versions and the token, without parsing JSON. */
  head(id: string): QueueHead | undefined {
    return this.deleting.has(id) ? undefined : this.store.queues.head(id);
  }

  summary(record: QueueRecord): QueueSummary {
    return {
      id: record.id,
      name: record.name,
      queueVersion: String(record.queueVersion),
      contextVersion: String(record.contextVersion),
      itemCount: record.itemCount,
      createdAt: record.createdAt,
      queueBaseUrl: `${this.options.cloudQueueUrl()}/queues/${record.id}/${CURRENT_VERSION}/`,
      accessToken: record.accessToken,
      accessTokenExpiresAt: record.tokenExpiresAt,
      httpAuthorization: `Bearer ${record.accessToken}`,
    };
  }

  private container(record: QueueRecord): QueueContainer {
    const { type, imageUrl } = record.container as { type?: string; imageUrl?: string };
    return {
      name: record.name,
      type: type ?? DEFAULT_CONTAINER_TYPE,
      id: { serviceId: CONTAINER_SERVICE_ID, objectId: record.id, accountId: 'demo' },
      imageUrl: imageUrl || DEFAULT_CONTAINER_IMAGE_URL,
    };
  }

  private replaceItems(record: QueueRecord, items: readonly ItemInput[]): void {
    const existing = this.store.queueItems.ids(record.key);
    const kept = new Set<string>();
    const rows = items.map((item, index) => {
      if (item.id !== undefined && existing.has(item.id)) {
        if (kept.has(item.id)) {
          throw new EngineError('invalid_input', `items[${index}].id ${item.id} appears twice`, {
            field: `items[${index}].id`,
          });
        }
        kept.add(item.id);
        return { itemId: item.id, item: itemJson(item.id, item.track, item.policies) };
      }
      return newRow(record, item);
    });
    this.store.queueItems.deleteAll(record.key);
    insertFresh(this.store.queueItems, record.key, rows);
    record.itemCount = rows.length;
  }

  gapAfter(record: QueueRecord, afterItemId: string | null | undefined): Gap {
    if (afterItemId === undefined) return 'end';
    if (afterItemId === null) return { afterPos: null };
    return { afterPos: this.mustGetItem(record, afterItemId).pos };
  }

  /**
   * One edit, all or nothing. The repository caches what it last saved of a queue; if the
   * transaction rolls back, that cache forgets the queue and reads it again next time.
   */
  transaction<T>(queueId: string, work: () => T): T {
    try {
      return this.store.transaction(work);
    } catch (error) {
      this.store.queues.forget(queueId);
      throw error;
    }
  }

  bump(record: QueueRecord): void {
    record.queueVersion++;
    this.store.queues.save(record);
  }

  editResult(record: QueueRecord): QueueEditResult {
    return { queueVersion: String(record.queueVersion), itemCount: record.itemCount };
  }

  changed(record: QueueRecord, change: 'created' | 'edited' | 'token'): void {
    this.options.emit('queues.changed', {
      queueId: record.id,
      change,
      queueVersion: String(record.queueVersion),
      contextVersion: String(record.contextVersion),
      itemCount: record.itemCount,
    });
  }

  /** The queue, unless a staged edit is writing it: every other edit waits its turn or is refused. */
  mustEdit(id: string): QueueRecord {
    const record = this.mustGet(id);
    this.writes.refuseIfBusy(id);
    return record;
  }

  mustGet(id: string): QueueRecord {
    const record = this.deleting.has(id) ? undefined : this.store.queues.get(id);
    if (!record) throw new EngineError('not_found', `no queue ${id}`);
    return record;
  }

  private mustGetItem(record: QueueRecord, itemId: string): ItemRow {
    const row = this.store.queueItems.byId(record.key, itemId);
    if (!row) throw new EngineError('not_found', `queue ${record.id} has no item ${itemId}`);
    return row;
  }

  /** Each item once, all of them present, or nothing happens. */
  private mustGetItems(record: QueueRecord, itemIds: readonly string[]): ItemRow[] {
    return [...new Set(itemIds)].map((itemId) => this.mustGetItem(record, itemId));
  }

  /** "Queue 3": one more than the queues there are. */
  private defaultName(): string {
    return `Queue ${this.store.queues.list().length + 1}`;
  }

  newQueueId(): string {
    for (;;) {
      const id = `queue-${randomBytes(4).toString('hex')}`;
      if (!this.store.queues.head(id)) return id;
    }
  }
}

/** The container fields a queue keeps (its name and id are the queue's own). */
function containerFields(container: QueueInput['container']): { type?: string; imageUrl?: string } {
  if (!container) return {};
  const { type, imageUrl } = container;
  return { ...(type === undefined ? {} : { type }), ...(imageUrl === undefined ? {} : { imageUrl }) };
}

function parseItem(row: ItemRow): QueueItem {
  return JSON.parse(row.item) as QueueItem;
}

const policiesOf = (record: QueueRecord) => record.playbackPolicies as PlaybackPolicies;
const reportsOf = (record: QueueRecord) => record.reports as unknown as ReportSettings;

/** 256 bits, URL-safe: the queue's bearer token. */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}
