/** Command handlers of the reference cloud queue server and its editor. */
import type { TimePlayedRecordView } from '../api/queue-types.js';
import type { CommandHandlers } from '../api/runner.js';
import { EngineError } from '../api/errors.js';
import type { TimePlayedRepository } from '../store/repositories/time-played.js';
import type { QueueActivity } from './activity.js';
import type { QueueGenerations } from './generation.js';
import type { QueueModel } from './queue-model.js';

type QueueCommandName = Extract<keyof CommandHandlers, `queues.${string}`>;

export function queueCommands(
  queues: QueueModel,
  generations: QueueGenerations,
  activity: QueueActivity,
  timePlayed: Pick<TimePlayedRepository, 'recent'>,
): Pick<CommandHandlers, QueueCommandName> {
  return {
    'queues.list': () => queues.list(),
    'queues.create': (input) => queues.create(input),
    'queues.get': ({ id }) => queues.get(id),
    'queues.context': ({ id }) => queues.context(id) ?? notFound(id),
    'queues.update': ({ id, ...patch }) => queues.update(id, patch),
    'queues.delete': ({ id }) => {
      queues.delete(id);
      activity.forget(id);
      return {};
    },
    'queues.token.issue': ({ id, lifetimeSec }) => queues.issueToken(id, lifetimeSec),
    'queues.items.page': ({ id, offset, limit }) => queues.itemsPage(id, offset, limit),
    'queues.items.locate': ({ id, itemId }) => queues.locate(id, itemId),
    'queues.items.add': ({ id, items, afterItemId }) => queues.addItems(id, items, afterItemId),
    'queues.items.generate': ({ id, count, afterItemId }) => generations.generate(id, count, afterItemId),
    'queues.items.generate.stop': ({ id }) => {
      if (!generations.running(id) && !queues.head(id)) notFound(id);
      return generations.stop(id);
    },
    'queues.items.update': ({ id, itemId, track, policies }) => queues.updateItem(id, itemId, { track, policies }),
    'queues.items.delete': ({ id, itemId }) => queues.removeItems(id, [itemId]),
    'queues.items.remove': ({ id, itemIds }) => queues.removeItems(id, itemIds),
    'queues.items.move': ({ id, itemIds, afterItemId }) => queues.moveItems(id, itemIds, afterItemId),
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

function notFound(id: string): never {
  throw new EngineError('not_found', `no queue ${id}`);
}
