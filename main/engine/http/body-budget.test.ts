/**
 * The budget a fleet's players read answers under (body-budget.ts): small answers never wait; a
 * reader past the allowance holds a slot to the end, and one that finds none free reads nothing
 * more until one is given back, or its signal fires.
 */
import { describe, expect, it } from 'vitest';
import { BodyBudget } from './body-budget.js';
import { readCappedBody, type BodySource } from './capped-body.js';

const KB = 1_024;

/** An answer whose chunks come when the test pushes them; `pulled` counts the reads asked for. */
function pushed(): { source: BodySource; push(bytes: number): void; end(): void; pulled: () => number } {
  const queue: ({ done: true } | { done: false; value: Uint8Array })[] = [];
  const readers: ((r: { done: boolean; value?: Uint8Array }) => void)[] = [];
  let pulled = 0;
  const offer = (item: { done: true } | { done: false; value: Uint8Array }) => {
    const reader = readers.shift();
    if (reader) reader(item);
    else queue.push(item);
  };
  const source: BodySource = {
    headers: { get: () => null },
    text: () => Promise.reject(new Error('read as a stream')),
    body: {
      getReader: () => ({
        read: () => {
          pulled++;
          const next = queue.shift();
          return next
            ? Promise.resolve(next as { done: false; value: Uint8Array })
            : new Promise((resolve) => readers.push(resolve as never));
        },
        cancel: () => Promise.resolve(offer({ done: true })),
        releaseLock: () => undefined,
      }),
      cancel: () => Promise.resolve(),
    },
  };
  return {
    source,
    push: (bytes) => offer({ done: false, value: new Uint8Array(bytes).fill(97) }),
    end: () => offer({ done: true }),
    pulled: () => pulled,
  };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('a body budget', () => {
  it('gives its slots first come, first served, and takes each back once', async () => {
    const budget = new BodyBudget({ allowanceBytes: KB, slots: 1 });
    const first = await budget.slot();
    const order: string[] = [];
    const second = budget.slot().then((release) => (order.push('second'), release));
    const third = budget.slot().then((release) => (order.push('third'), release));
    await settled();
    expect(order).toEqual([]);
    expect(budget.waitingReaders).toBe(2);
    first();
    first(); // a second release gives nothing more
    const releaseSecond = await second;
    await settled();
    expect(order).toEqual(['second']);
    releaseSecond();
    (await third)();
    expect(order).toEqual(['second', 'third']);
    expect(budget.freeSlots).toBe(1);
  });

  it('stops waiting when the signal fires, holding nothing', async () => {
    const budget = new BodyBudget({ allowanceBytes: KB, slots: 1 });
    const held = await budget.slot();
    const abort = new AbortController();
    const waiting = budget.slot(abort.signal);
    abort.abort(new Error('no complete response within 10 s'));
    await expect(waiting).rejects.toThrow('no complete response within 10 s');
    expect(budget.waitingReaders).toBe(0);
    held();
    expect(budget.freeSlots).toBe(1);
  });
});

describe('a capped body read under a budget', () => {
  it('reads an answer within the allowance without a slot, even when none is free', async () => {
    const budget = new BodyBudget({ allowanceBytes: 64 * KB, slots: 1 });
    const held = await budget.slot();
    const answer = pushed();
    const read = readCappedBody(answer.source, 8 * KB * KB, undefined, budget);
    answer.push(32 * KB);
    answer.push(32 * KB);
    answer.end();
    await expect(read).resolves.toMatchObject({ ok: true, bytes: 64 * KB });
    held();
  });

  it('reads nothing past the allowance until a slot is free, then to the end, and gives it back', async () => {
    const budget = new BodyBudget({ allowanceBytes: 64 * KB, slots: 1 });
    const held = await budget.slot();
    const answer = pushed();
    const read = readCappedBody(answer.source, 8 * KB * KB, undefined, budget);
    answer.push(48 * KB);
    answer.push(48 * KB); // 96 KB: past the allowance, so the read waits for the slot
    await settled();
    const pulledWhileWaiting = answer.pulled();
    expect(pulledWhileWaiting).toBe(2);
    expect(budget.waitingReaders).toBe(1);
    answer.push(48 * KB);
    await settled();
    expect(answer.pulled()).toBe(pulledWhileWaiting); // still waiting: nothing more read
    held();
    answer.end();
    await expect(read).resolves.toMatchObject({ ok: true, bytes: 144 * KB });
    expect(budget.freeSlots).toBe(1);
  });

  it('gives the slot back when the answer is cut at the cap', async () => {
    const budget = new BodyBudget({ allowanceBytes: 16 * KB, slots: 1 });
    const answer = pushed();
    const read = readCappedBody(answer.source, 64 * KB, undefined, budget);
    for (let i = 0; i < 5; i++) answer.push(16 * KB);
    await expect(read).resolves.toMatchObject({ ok: false, bytes: 64 * KB });
    expect(budget.freeSlots).toBe(1);
  });

  it('ends with the signal while it waits for a slot', async () => {
    const budget = new BodyBudget({ allowanceBytes: 16 * KB, slots: 1 });
    const held = await budget.slot();
    const answer = pushed();
    const abort = new AbortController();
    const read = readCappedBody(answer.source, 64 * KB, abort.signal, budget);
    answer.push(32 * KB);
    await settled();
    abort.abort(new Error('no complete response within 10 s'));
    await expect(read).rejects.toThrow('no complete response within 10 s');
    expect(budget.waitingReaders).toBe(0);
    held();
    expect(budget.freeSlots).toBe(1);
  });
});
