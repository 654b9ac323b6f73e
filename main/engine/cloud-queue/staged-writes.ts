/**
 * Edits of many items (a queue created with them, its items replaced, items added) are written in
 * steps of WRITE_STEP with the event loop free between them, and shown at once (docs/contract/console.md
 * §9: no admin call holds the other listeners more than 250 ms; 100,000 items in one transaction
 * held them 0.5–1 s, 500,000 items 1.8 s and more).
 *
 * The steps write into a shadow row of the queues table, which no reader sees (its id starts with
 * SHADOW_ID_PREFIX): the new queue, the replacing list, or a copy of the queue with the items added.
 * One short transaction then makes the shadow the queue: a reader sees the old queue and version
 * until then, the new ones after, never a part. Whatever fails before that (an id given twice, the
 * engine closing) leaves the queue as it was; the shadow's rows are deleted in steps, and a start
 * deletes any a stop left behind. The edits of one queue take turns: an edit that arrives while one
 * is being written waits for it, through `turn`; an edit made behind its back is refused.
 */
import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { EngineError } from '../api/errors.js';
import type { QueueEditResult, QueueSummary } from '../api/queue-types.js';
import type { NewQueue, QueueRecord } from '../store/repositories/queues.js';
import { SHADOW_ID_PREFIX } from '../store/repositories/queues.js';
import type { Store } from '../store/store.js';
import { itemJson, newRow, type ItemInput } from './item-rows.js';
import { insertRows, type Gap, type NewRow } from './ordering.js';
import { GAP } from './positions.js';
import type { QueueInput } from './queue-input.js';

/** Items per step of a staged edit: ~8 ms of JSON and inserts here (1,000 sample items), ~30 ms on a busy machine. */
export const WRITE_STEP = 1_000;
/** Rows per step when a queue's items are copied or deleted: SQLite alone, ~15 ms. */
export const ROW_STEP = 5_000;

type Patch = Omit<QueueInput, 'accessTokenLifetimeSec'>;

/** What staged writes ask of the queue model that owns them (queue-model.ts hands itself in). */
export interface StagingModel {
  create(input: QueueInput): QueueSummary;
  newQueueId(): string;
  newRecord(id: string, input: Omit<QueueInput, 'items'>): NewQueue;
  update(id: string, patch: Patch): QueueSummary;
  applyContext(record: QueueRecord, patch: Omit<Patch, 'items'>): void;
  addItems(id: string, items: readonly ItemInput[], afterItemId?: string | null): QueueEditResult;
  checkAnchor(id: string, afterItemId: string | null | undefined): void;
  gapAfter(record: QueueRecord, afterItemId: string | null | undefined): Gap;
  mustGet(id: string): QueueRecord;
  summary(record: QueueRecord): QueueSummary;
  changed(record: QueueRecord, change: 'created' | 'edited'): void;
  transaction<T>(queueId: string, work: () => T): T;
}

/** See `StagedWrites.stageCreate`. */
export interface StagedQueue {
  id: string;
  /** The new items' ids, in order. */
  itemIds: string[];
  publish(): QueueSummary;
  discard(): Promise<void>;
}

export class StagedWrites {
  /** Per queue: the end of its line of edits, and how many are in it. */
  private readonly lines = new Map<string, { tail: Promise<unknown>; waiting: number }>();
  /** The queue whose edit runs right now inside its line (edits of the model check it). */
  private inside: string | null = null;

  constructor(
    private readonly model: StagingModel,
    private readonly store: Pick<Store, 'queues' | 'queueItems' | 'transaction'>,
    private readonly between: () => Promise<unknown> = () => nextTurn(),
  ) {
    // Shadows a stop left behind (an edit cut short): never shown, deleted in steps.
    for (const shadow of store.queues.shadows()) void this.discard(shadow).catch(() => undefined);
  }

  /** Refuses an edit made while a staged edit of the queue is being written (or waits to be). */
  refuseIfBusy(queueId: string): void {
    if (this.lines.has(queueId) && this.inside !== queueId) {
      throw new EngineError(
        'conflict',
        `queue ${queueId} is being written by an edit of many items; try again once it has answered`,
      );
    }
  }

  /** Runs an edit of the queue now, or after the edits already in its line. */
  turn<T>(queueId: string, edit: () => T | Promise<T>): T | Promise<T> {
    if (!this.lines.has(queueId)) return edit();
    return this.inLine(queueId, () => this.as(queueId, edit));
  }

  /** POST /queues. */
  create(input: QueueInput): QueueSummary | Promise<QueueSummary> {
    if ((input.items ?? []).length <= WRITE_STEP) return this.model.create(input);
    return this.stageCreate(input).then(async (staged) => {
      try {
        return this.model.transaction(staged.id, () => staged.publish());
      } catch (error) {
        await staged.discard();
        throw error;
      }
    });
  }

  /**
   * A new queue with its items written in steps but not shown yet: `publish` (inside the caller's
   * transaction, with whatever else must be all or nothing with it) shows it; `discard` drops it,
   * and must follow a publish that was rolled back.
   */
  async stageCreate(input: QueueInput): Promise<StagedQueue> {
    const id = this.model.newQueueId();
    const items = input.items ?? [];
    const shadow = this.shadowOf(this.model.newRecord(id, input));
    const itemIds: string[] = [];
    await this.staged(shadow, () =>
      this.writeFresh(shadow, items, (item) => {
        const row = newRow(shadow, item);
        itemIds.push(row.itemId);
        return row;
      }),
    );
    return {
      id,
      itemIds,
      publish: () => {
        const record: QueueRecord = { ...shadow, id, itemCount: items.length };
        this.store.queues.publish(record, shadow.key);
        this.model.changed(record, 'created');
        return this.model.summary(record);
      },
      discard: async () => {
        this.store.queues.forget(id);
        await this.discard(shadow).catch(() => undefined);
      },
    };
  }

  /** PATCH /queues/{id}: `items` replaces the list, known ids kept. */
  update(id: string, patch: Patch): QueueSummary | Promise<QueueSummary> {
    const items = patch.items;
    if (!items || items.length <= WRITE_STEP) return this.turn(id, () => this.model.update(id, patch));
    this.model.mustGet(id);
    return this.inLine(id, async () => {
      const record = this.model.mustGet(id);
      const shadow = this.shadowOf({ ...record, itemCount: 0 });
      const kept = new Set<string>();
      await this.staged(shadow, () =>
        this.writeFresh(shadow, items, (item, index) => {
          if (item.id === undefined || !this.store.queueItems.has(record.key, item.id)) return newRow(shadow, item);
          if (kept.has(item.id))
            throw new EngineError('invalid_input', `items[${index}].id ${item.id} appears twice`, {
              field: `items[${index}].id`,
            });
          kept.add(item.id);
          return { itemId: item.id, item: itemJson(item.id, item.track, item.policies) };
        }),
      );
      return this.model.summary(
        await this.publish(id, shadow, items.length, (current) => this.model.applyContext(current, patch)),
      );
    });
  }

  /** POST /queues/{id}/items: after `afterItemId` (null: at the start; absent: at the end). */
  addItems(
    id: string,
    items: readonly ItemInput[],
    afterItemId?: string | null,
  ): QueueEditResult | Promise<QueueEditResult> {
    if (items.length <= WRITE_STEP) return this.turn(id, () => this.model.addItems(id, items, afterItemId));
    // A wrong queue or item is refused at once (in a queue's line, once its turn comes).
    if (!this.lines.has(id)) this.model.checkAnchor(id, afterItemId);
    return this.inLine(id, async () => {
      const record = this.model.mustGet(id);
      let gap: Gap = this.model.gapAfter(record, afterItemId);
      const shadow = this.shadowOf({ ...record, itemCount: 0 });
      const itemIds: string[] = [];
      await this.staged(shadow, async () => {
        await this.copyItems(record.key, shadow.key);
        for (let done = 0; done < items.length; done += WRITE_STEP) {
          await this.between();
          const rows = items
            .slice(done, done + WRITE_STEP)
            .map((item) => newRow(shadow, { track: item.track, policies: item.policies }));
          // Each step plans the gap for all the items still to come (see `insertRows`).
          this.store.transaction(() => insertRows(this.store.queueItems, shadow.key, gap, rows, items.length - done));
          for (const row of rows) itemIds.push(row.itemId);
          gap = { afterPos: this.store.queueItems.byId(shadow.key, itemIds[itemIds.length - 1]!)!.pos };
        }
      });
      const published = await this.publish(id, shadow, record.itemCount + items.length);
      return { queueVersion: String(published.queueVersion), itemCount: published.itemCount, itemIds };
    });
  }

  /** A shadow row for `fields` (the queue's id is given back when it is published). */
  private shadowOf(fields: NewQueue): QueueRecord {
    return this.store.transaction(() => this.store.queues.create({ ...fields, id: shadowId() }));
  }

  /** Runs the steps that fill a shadow; on any failure the shadow goes and the error is the edit's. */
  private async staged(shadow: QueueRecord, steps: () => Promise<void>): Promise<void> {
    try {
      await steps();
    } catch (error) {
      await this.discard(shadow).catch(() => undefined);
      throw error;
    }
  }

  /** Writes a whole list into an empty shadow, at the labels a list built at once would have. */
  private async writeFresh(
    shadow: QueueRecord,
    items: readonly ItemInput[],
    rowOf: (item: ItemInput, index: number) => NewRow,
  ): Promise<void> {
    for (let done = 0; done < items.length; done += WRITE_STEP) {
      if (done > 0) await this.between();
      const rows = items.slice(done, done + WRITE_STEP).map((item, i) => rowOf(item, done + i));
      const labels = rows.map((_, i) => (done + i + 1) * GAP);
      this.store.transaction(() => this.store.queueItems.insertMany(shadow.key, labels, rows));
    }
  }

  /** Copies every item of a queue to its shadow, ROW_STEP at a time. */
  private async copyItems(fromKey: number, toKey: number): Promise<void> {
    let after: number | null = null;
    for (;;) {
      const copied = this.store.transaction(() => this.store.queueItems.copyAfter(fromKey, toKey, after, ROW_STEP));
      if (copied < ROW_STEP) return;
      after = this.store.queueItems.last(toKey)!.pos;
      await this.between();
    }
  }

  /**
   * Makes the shadow the queue's items in one short transaction (one new queueVersion), then
   * deletes the old items in steps before answering.
   */
  private async publish(
    id: string,
    shadow: QueueRecord,
    itemCount: number,
    change?: (record: QueueRecord) => void,
  ): Promise<QueueRecord> {
    const discardId = shadowId();
    let oldKey = 0;
    let record: QueueRecord;
    try {
      record = this.model.transaction(id, () => {
        const current = this.model.mustGet(id);
        oldKey = current.key;
        current.nextItemSeq = shadow.nextItemSeq;
        current.itemCount = itemCount;
        change?.(current);
        current.queueVersion++;
        this.store.queues.publish(current, shadow.key, { discardId });
        return current;
      });
    } catch (error) {
      // The queue went meanwhile (deleted behind the line's back), or the disk failed.
      await this.discard(shadow).catch(() => undefined);
      throw error;
    }
    this.model.changed(record, 'edited');
    await this.discard({ key: oldKey, id: discardId }).catch(() => undefined);
    return record;
  }

  /** Deletes a shadow's rows, ROW_STEP at a time, then the shadow. */
  private async discard(shadow: Pick<QueueRecord, 'key' | 'id'>): Promise<void> {
    while (this.store.transaction(() => this.store.queueItems.deleteFirst(shadow.key, ROW_STEP)) >= ROW_STEP)
      await this.between();
    this.store.queues.delete(shadow);
  }

  /** Runs `edit` after every edit already in the queue's line; the line holds while it runs. */
  private inLine<T>(queueId: string, edit: () => Promise<T>): Promise<T> {
    const line = this.lines.get(queueId) ?? { tail: Promise.resolve(), waiting: 0 };
    line.waiting++;
    this.lines.set(queueId, line);
    const run = line.tail.then(edit);
    line.tail = run.catch(() => undefined);
    const leave = () => {
      if (--line.waiting === 0 && this.lines.get(queueId) === line) this.lines.delete(queueId);
    };
    run.then(leave, leave);
    return run;
  }

  /** Runs an edit of the model as the queue's line's own (its own edits are not refused). */
  private async as<T>(queueId: string, edit: () => T | Promise<T>): Promise<T> {
    this.inside = queueId;
    try {
      const pending = edit();
      this.inside = null;
      return await pending;
    } finally {
      this.inside = null;
    }
  }
}

const shadowId = (): string => `${SHADOW_ID_PREFIX}staged-${randomBytes(6).toString('hex')}`;
