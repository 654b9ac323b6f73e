/**
 * A queue longer than one read allows is exported page by page, and comes out as the same file a
 * single read gives: against a real engine, a queue of 10,001 items.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { QueueSummary } from '@engine-api/queue-types';
import type { Engine } from '../../../../main/engine/index';
import { startTestEngine } from '../../../../main/engine/testing/http';
import { readWholeQueue, WHOLE_QUEUE_READ_LIMIT } from './read-queue';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());

const api = { call: (name: never, input: unknown) => engine.commands.run(name, input) } as unknown as Parameters<
  typeof readWholeQueue
>[0];

it('reads a queue over the single-read limit in pages, every item once, in order', async () => {
  const queue = (await engine.commands.run('queues.create', {
    name: 'Long',
    items: [],
    playbackPolicies: { canSkip: false },
  })) as QueueSummary;
  await engine.commands.run('queues.items.generate', { id: queue.id, count: WHOLE_QUEUE_READ_LIMIT + 1 });
  const long = { ...queue, itemCount: WHOLE_QUEUE_READ_LIMIT + 1 };
  await expect(engine.commands.run('queues.get', { id: queue.id })).rejects.toThrow(/in pages/);
  const view = await readWholeQueue(api, long);
  expect(view.items).toHaveLength(WHOLE_QUEUE_READ_LIMIT + 1);
  expect(new Set(view.items.map((item) => item.id)).size).toBe(WHOLE_QUEUE_READ_LIMIT + 1);
  expect(view.items[0]?.id).toBe('item-1');
  expect(view.playbackPolicies.canSkip).toBe(false);
});
