/**
 * The whole queue for an export. `GET /queues/{id}` answers up to 10,000 items at once
 * (docs/contract/console.md §9: one read never holds the listeners); a longer queue is read as its
 * context plus its items page by page, which gives the same file.
 */
import type { QueueItem, QueueSummary, QueueView } from '@engine-api/queue-types';
import type { Api } from '../../api/client';

/** What `queues.get` answers in one read (the engine's MAX_ITEMS_IN_QUEUE_READ). */
export const WHOLE_QUEUE_READ_LIMIT = 10_000;
const PAGE = 1_000;

export async function readWholeQueue(api: Pick<Api, 'call'>, queue: QueueSummary): Promise<QueueView> {
  if (queue.itemCount <= WHOLE_QUEUE_READ_LIMIT) return api.call('queues.get', { id: queue.id });
  const context = await api.call('queues.context', { id: queue.id });
  const items: QueueItem[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await api.call('queues.items.page', { id: queue.id, offset, limit: PAGE });
    for (const { id, track, policies } of page.items) items.push(policies ? { id, track, policies } : { id, track });
    if (page.items.length < PAGE || offset + PAGE >= page.total) break;
  }
  return {
    ...queue,
    container: context.container,
    playbackPolicies: context.playbackPolicies,
    reports: context.reports,
    items,
  };
}
