/** Command handlers of the reference cloud queue server and its editor. */
import type { TimePlayedRecordView } from '../api/queue-types.js';
import type { CommandHandlers } from '../api/runner.js';
import { MAX_ITEMS_PER_WRITE } from '../api/commands/queues.js';
import { EngineError } from '../api/errors.js';
import type { TimePlayedRepository } from '../store/repositories/time-played.js';
import type { QueueActivity } from './activity.js';
import type { QueueGenerations } from './generation.js';
import type { QueueModel } from './queue-model.js';

type QueueCommandName = Extract<keyof CommandHandlers, `queues.${string}`>;

/**
 * The most items `queues.get` answers with: 10,000 sample items take ~55 ms and 3.2 MB of JSON
 * (20,000: 115–150 ms), well inside the 250 ms an admin call may hold the listeners on a slower
 * machine too; a longer queue is read in pages.
 */
export const MAX_ITEMS_IN_QUEUE_READ = 10_000;

export function queueCommands(
  queues: QueueModel,
  generations: QueueGenerations,
  activity: QueueActivity,
  timePlayed: Pick<TimePlayedRepository, 'recent'>,
): Pick<CommandHandlers, QueueCommandName> {
  return {
    'queues.list': () => queues.list(),
    'queues.create': (input) => queues.writes.create(withinWriteBound(input.items, input)),
    'queues.get': ({ id }) => {
      // A queue too long for one answer is refused with how to page it (docs/contract/console.md §9):
      // a million items took 22–37 s and 325 MB, and held every listener meanwhile.
      const itemCount = (queues.head(id) ?? notFound(id)).itemCount;
      if (itemCount > MAX_ITEMS_IN_QUEUE_READ) {
        throw new EngineError(
          'invalid_input',
          `queue ${id} has ${itemCount.toLocaleString('en-US')} items, more than GET /admin/api/queues/{id} answers with (${MAX_ITEMS_IN_QUEUE_READ.toLocaleString('en-US')}); ` +
            `read its context with GET /admin/api/queues/${id}/context and its items in pages with GET /admin/api/queues/${id}/items?offset=0&limit=1000 (then offset=1000, …)`,
          { itemCount, maxItems: MAX_ITEMS_IN_QUEUE_READ },
        );
      }
      return queues.get(id);
    },
    'queues.context': ({ id }) => queues.context(id) ?? notFound(id),
    'queues.update': ({ id, ...patch }) => queues.writes.update(id, withinWriteBound(patch.items, patch)),
    'queues.delete': async ({ id }) => {
      await queues.writes.turn(id, () => queues.delete(id));
      activity.forget(id);
      return {};
    },
    'queues.token.issue': ({ id, lifetimeSec }) => queues.issueToken(id, lifetimeSec),
    'queues.items.page': ({ id, offset, limit }) => queues.itemsPage(id, offset, limit),
    'queues.items.locate': ({ id, itemId }) => queues.locate(id, itemId),
    'queues.items.add': ({ id, items, afterItemId }) =>
      queues.writes.addItems(id, withinWriteBound(items), afterItemId),
    'queues.items.generate': ({ id, count, afterItemId }) => generations.generate(id, count, afterItemId),
    'queues.items.generate.stop': ({ id }) => {
      if (!generations.running(id) && !queues.head(id)) notFound(id);
      return generations.stop(id);
    },
    'queues.items.update': ({ id, itemId, track, policies }) =>
      queues.writes.turn(id, () => queues.updateItem(id, itemId, { track, policies })),
    'queues.items.delete': ({ id, itemId }) => queues.writes.turn(id, () => queues.removeItems(id, [itemId])),
    'queues.items.remove': ({ id, itemIds }) => queues.writes.turn(id, () => queues.removeItems(id, itemIds)),
    'queues.items.move': ({ id, itemIds, afterItemId }) =>
      queues.writes.turn(id, () => queues.moveItems(id, itemIds, afterItemId)),
    'queues.activity': ({ id }) => {
      if (!queues.head(id)) notFound(id);
      return activity.view(id);
    },
    'queues.reports': ({ id, itemId, limit }) => {
      const head = queues.head(id) ?? notFound(id);
      return timePlayed.recent(head.key, limit ?? 200, itemId) as TimePlayedRecordView[];
    },
  };
}

/**
 * Refuses more items than one call may carry (MAX_ITEMS_PER_WRITE), saying how to go on; answers
 * `value` (the items themselves unless told).
 */
function withinWriteBound<T>(items: readonly unknown[] | undefined, value: T = items as T): T {
  const count = items?.length ?? 0;
  if (count > MAX_ITEMS_PER_WRITE) {
    const most = MAX_ITEMS_PER_WRITE.toLocaleString('en-US');
    throw new EngineError(
      'invalid_input',
      `${count.toLocaleString('en-US')} items are more than one call takes (${most}): send them in several calls of up to ${most} (create or replace with the first, add the rest with POST /admin/api/queues/{id}/items), or make sample items with POST /admin/api/queues/{id}/items/generate`,
      { field: 'items', itemCount: count, maxItems: MAX_ITEMS_PER_WRITE },
    );
  }
  return value;
}

function notFound(id: string): never {
  throw new EngineError('not_found', `no queue ${id}`);
}
