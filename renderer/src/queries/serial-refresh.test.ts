import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { serialRefresh } from './serial-refresh';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An "engine" edited every 4 ms, 30 times, whose reads take 10 ms: faster edits than reads, as a
 * generation's. `wire` answers what the renderer does with each edit's event.
 */
async function burst(wire: (client: QueryClient) => () => void) {
  const client = new QueryClient();
  const engine = { count: 0, reads: 0 };
  const queryFn = async () => {
    const answer = engine.count;
    engine.reads += 1;
    await sleep(10);
    return answer;
  };
  const unsubscribe = new QueryObserver(client, { queryKey: ['queue'], queryFn, staleTime: Infinity }).subscribe(
    () => {},
  );
  await expect.poll(() => client.getQueryData(['queue'])).toBe(0);
  const onEdit = wire(client);
  const seenDuring: unknown[] = [];
  for (let i = 0; i < 30; i++) {
    engine.count += 1;
    onEdit();
    await sleep(4);
    seenDuring.push(client.getQueryData(['queue']));
  }
  await expect.poll(() => client.getQueryData(['queue'])).toBe(30);
  unsubscribe();
  return { seenDuring, reads: engine.reads };
}

describe('serialRefresh', () => {
  it('shows edits while they keep coming, ends on the last one, and reads less than once per edit', async () => {
    const { seenDuring, reads } = await burst((client) => {
      const refresh = serialRefresh(() => client.invalidateQueries({ queryKey: ['queue'] }));
      return () => refresh.changed('q');
    });
    // An invalidation per edit instead cancels each read on its way: 0 until the edits stop.
    expect(new Set(seenDuring.filter((n) => n !== 0)).size).toBeGreaterThan(1);
    expect(reads).toBeLessThan(30);
  });

  it('drops a refresh still to come for a key that is forgotten', async () => {
    const calls: string[] = [];
    let release!: () => void;
    const refresh = serialRefresh(async (key) => {
      calls.push(key);
      await new Promise<void>((resolve) => (release = resolve));
    });
    refresh.changed('a');
    refresh.changed('a');
    refresh.forget('a');
    release();
    await sleep(5);
    expect(calls).toEqual(['a']);
  });

  it('keeps going after a refresh that failed', async () => {
    const calls: string[] = [];
    let fail = true;
    const refresh = serialRefresh(async (key) => {
      calls.push(key);
      if (fail) {
        fail = false;
        throw new Error('engine away');
      }
    });
    refresh.changed('a');
    await sleep(1);
    refresh.changed('a');
    await sleep(1);
    expect(calls).toEqual(['a', 'a']);
  });
});
