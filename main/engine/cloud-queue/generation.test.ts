import { afterEach, describe, expect, it } from 'vitest';
import type { QueueGeneration } from '../api/queue-types.js';
import { GENERATION_STEP, QueueGenerations } from './generation.js';
import { modelFixture, tracks, type ModelFixture } from './testing.js';

let fixture: ModelFixture | null = null;
afterEach(() => fixture?.store.close());

/** A generation whose pauses between steps wait for the test: `step()` lets the next one run. */
function harness() {
  fixture = modelFixture();
  const reports: QueueGeneration[] = [];
  const waiting: (() => void)[] = [];
  const generations = new QueueGenerations({
    queues: fixture.model,
    emit: (_name, data) => reports.push(data),
    between: () => new Promise<void>((resolve) => waiting.push(resolve)),
  });
  const paused = async () => {
    while (waiting.length === 0) await new Promise((resolve) => setImmediate(resolve));
  };
  const step = async () => {
    await paused();
    waiting.shift()!();
  };
  return { f: fixture, generations, reports, paused, step };
}

const n = (count: number) => count.toLocaleString('en-US');
const idsOf = (f: ModelFixture, queueId: string) =>
  f.store.queueItems.page(f.store.queues.head(queueId)!.key, 0, 1_000_000).map((r) => r.item_id);

describe('generating sample tracks in steps (generation.ts)', () => {
  it('makes N items as edits of GENERATION_STEP, in one run after the anchor, saying how far it got', async () => {
    const { f, generations, reports, step } = harness();
    const q = f.model.create({ items: tracks(4) });
    const count = 2 * GENERATION_STEP + 7;
    const done = generations.generate(q.id, count, 'item-2');
    await step();
    await step();
    const result = await done;

    expect(result.itemIds).toHaveLength(count);
    expect(result.itemCount).toBe(4 + count);
    expect(idsOf(f, q.id)).toEqual(['item-1', 'item-2', ...result.itemIds!, 'item-3', 'item-4']);
    // One queueVersion per step: every reader sees whole edits.
    expect(Number(result.queueVersion) - Number(q.queueVersion)).toBe(3);
    expect(
      f.events.filter((e) => e.name === 'queues.changed' && (e.data as { change: string }).change === 'edited'),
    ).toHaveLength(3);
    expect(reports.map((r) => [r.state, r.done, r.total])).toEqual([
      ['running', GENERATION_STEP, count],
      ['running', 2 * GENERATION_STEP, count],
      ['finished', count, count],
    ]);
    // The n-th sample of a queue is the same track, however many steps made it.
    expect(f.model.itemsPage(q.id, 2, 1).items[0]!.track.name).toMatch(/ 5$/);
  });

  it('makes a small count in one edit with nothing in between', async () => {
    const { f, generations, reports } = harness();
    const q = f.model.create({});
    const result = await generations.generate(q.id, 3);
    expect(result.itemIds).toEqual(['item-1', 'item-2', 'item-3']);
    expect(reports).toEqual([{ queueId: q.id, state: 'finished', done: 3, total: 3 }]);
  });

  it('stops after the current step and keeps what was made', async () => {
    const { f, generations, reports, paused, step } = harness();
    const q = f.model.create({});
    const done = generations.generate(q.id, 10 * GENERATION_STEP, null);
    await paused();
    const stopping = generations.stop(q.id);
    await step();
    // Stop answers once the run has ended: a new one may start at once.
    await expect(stopping).resolves.toEqual({ stopped: true });
    expect(generations.running(q.id)).toBe(false);
    const result = await done;
    expect(result.itemIds).toHaveLength(GENERATION_STEP);
    expect(f.store.queues.head(q.id)!.itemCount).toBe(GENERATION_STEP);
    expect(reports.at(-1)).toEqual({
      queueId: q.id,
      state: 'stopped',
      done: GENERATION_STEP,
      total: 10 * GENERATION_STEP,
    });
    await expect(generations.stop(q.id)).resolves.toEqual({ stopped: false });
    await expect(generations.generate(q.id, 2)).resolves.toMatchObject({ itemCount: GENERATION_STEP + 2 });
  });

  it('refuses a second generation on the same queue while one runs, and allows one after', async () => {
    const { f, generations, paused, step } = harness();
    const q = f.model.create({});
    const first = generations.generate(q.id, 2 * GENERATION_STEP);
    await paused();
    await expect(generations.generate(q.id, 5)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(`${n(GENERATION_STEP)} of ${n(2 * GENERATION_STEP)} made`),
    });
    await step();
    await first;
    await expect(generations.generate(q.id, 5)).resolves.toMatchObject({ itemCount: 2 * GENERATION_STEP + 5 });
  });

  it('refuses a missing queue or anchor before anything is made', async () => {
    const { f, generations, reports } = harness();
    const q = f.model.create({ items: tracks(1) });
    await expect(generations.generate('nope', 5)).rejects.toMatchObject({ code: 'not_found' });
    await expect(generations.generate(q.id, 5, 'item-99')).rejects.toMatchObject({ code: 'not_found' });
    expect(f.store.queues.head(q.id)!.itemCount).toBe(1);
    expect(reports).toEqual([]);
  });

  it('ends when the item it follows is removed mid-run, saying so in its own words and listing what it made', async () => {
    const { f, generations, reports, paused, step } = harness();
    const q = f.model.create({ items: tracks(2) });
    const done = generations.generate(q.id, 3 * GENERATION_STEP, 'item-1');
    await paused();
    const last = idsOf(f, q.id).at(-2)!; // the first step's last item (item-2 is after it)
    f.model.removeItems(q.id, [last]);
    const failed = expect(done).rejects.toMatchObject({
      code: 'not_found',
      message: `the generation stopped after ${n(GENERATION_STEP)} of ${n(3 * GENERATION_STEP)} items: ${last}, the last item it had made, was removed or replaced, and the rest was to follow it`,
      details: { done: GENERATION_STEP, total: 3 * GENERATION_STEP, itemIds: expect.arrayContaining([last]) },
    });
    await step();
    await failed;
    expect(reports.at(-1)).toMatchObject({
      state: 'failed',
      done: GENERATION_STEP,
      message: expect.stringContaining('was removed or replaced'),
    });
    expect(f.store.queues.head(q.id)!.itemCount).toBe(2 + GENERATION_STEP - 1);
  });

  it('ends when its queue is deleted mid-run, and says that', async () => {
    const { f, generations, paused, step } = harness();
    const q = f.model.create({});
    const done = generations.generate(q.id, 3 * GENERATION_STEP);
    await paused();
    // The delete goes in steps of its own: awaited below, so it ends before the store closes.
    const deleted = f.model.delete(q.id);
    expect(generations.running(q.id)).toBe(true);
    const failed = expect(done).rejects.toMatchObject({
      code: 'not_found',
      message: `the generation stopped after ${n(GENERATION_STEP)} of ${n(3 * GENERATION_STEP)} items: queue ${q.id} was deleted`,
    });
    await step();
    await failed;
    await deleted;
  });

  it('plans the gap for the whole run: the items around it keep their labels through every step', async () => {
    const { f, generations, step } = harness();
    const q = f.model.create({ items: tracks(6) });
    const key = f.store.queues.head(q.id)!.key;
    const labels = () => new Map(f.store.queueItems.page(key, 0, 1_000_000).map((r) => [r.item_id, r.pos]));
    const before = labels();
    const done = generations.generate(q.id, 3 * GENERATION_STEP, 'item-3');
    await step();
    await step();
    const result = await done;
    const after = labels();
    expect([...before].filter(([id, pos]) => after.get(id) !== pos)).toEqual([]);
    expect(idsOf(f, q.id)).toEqual(['item-1', 'item-2', 'item-3', ...result.itemIds!, 'item-4', 'item-5', 'item-6']);
  });

  it('stops at the next step when the engine closes, before the store does', async () => {
    const { f, generations, reports, paused, step } = harness();
    const q = f.model.create({});
    const done = generations.generate(q.id, 3 * GENERATION_STEP);
    await paused();
    generations.close();
    f.store.close();
    fixture = null;
    await step();
    await expect(done).resolves.toMatchObject({ itemCount: GENERATION_STEP });
    expect(reports.at(-1)!.state).toBe('stopped');
    await expect(generations.generate(q.id, 1)).rejects.toMatchObject({ code: 'unavailable' });
  });
});
