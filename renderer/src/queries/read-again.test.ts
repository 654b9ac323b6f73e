import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { readAgain } from './read-again';

/** A query function answering with what the "engine" held when it was called, a little later. */
function slowEngine(initial: number) {
  const engine = { count: initial, answers: 0 };
  const queryFn = async (): Promise<number> => {
    const answer = engine.count;
    engine.answers += 1;
    await new Promise((resolve) => setTimeout(resolve, 10));
    return answer;
  };
  return { engine, queryFn };
}

/** An observed query, fresh until told otherwise, as the console's live lists are. */
function observed(client: QueryClient, queryFn: () => Promise<number>) {
  return new QueryObserver(client, { queryKey: ['count'], queryFn, staleTime: Infinity }).subscribe(() => {});
}

describe('readAgain', () => {
  it('reads again once a first read that predates the change has answered', async () => {
    const client = new QueryClient();
    const { engine, queryFn } = slowEngine(0);
    const unsubscribe = observed(client, queryFn);
    engine.count = 1;
    await readAgain(client, { queryKey: ['count'] });
    expect(client.getQueryData(['count'])).toBe(1);
    expect(engine.answers).toBe(2);
    unsubscribe();
  });

  it('is needed: invalidating alone keeps the first read’s answer, which predates the change', async () => {
    const client = new QueryClient();
    const { engine, queryFn } = slowEngine(0);
    const unsubscribe = observed(client, queryFn);
    engine.count = 1;
    await client.invalidateQueries({ queryKey: ['count'] });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(client.getQueryData(['count'])).toBe(0);
    expect(client.getQueryState(['count'])?.isInvalidated).toBe(false);
    unsubscribe();
  });

  it('leaves a first read whose list went away meanwhile to be read again when it comes back', async () => {
    const client = new QueryClient();
    const { engine, queryFn } = slowEngine(0);
    const unsubscribe = observed(client, queryFn);
    unsubscribe();
    engine.count = 1;
    await readAgain(client, { queryKey: ['count'] });
    expect(client.getQueryData(['count'])).toBe(0);
    expect(client.getQueryState(['count'])?.isInvalidated).toBe(true);
    const again = observed(client, queryFn);
    await expect.poll(() => client.getQueryData(['count'])).toBe(1);
    again();
  });

  it('reads once when nothing was on its way', async () => {
    const client = new QueryClient();
    const { engine, queryFn } = slowEngine(0);
    const unsubscribe = observed(client, queryFn);
    await expect.poll(() => client.getQueryData(['count'])).toBe(0);
    engine.count = 1;
    await readAgain(client, { queryKey: ['count'] });
    expect(client.getQueryData(['count'])).toBe(1);
    expect(engine.answers).toBe(2);
    unsubscribe();
  });

  it('lets a first read finish under changes that keep coming, so something shows', async () => {
    const client = new QueryClient();
    const { engine, queryFn } = slowEngine(0);
    const unsubscribe = observed(client, queryFn);
    const stream = setInterval(() => {
      engine.count += 1;
      void readAgain(client, { queryKey: ['count'] });
    }, 3);
    await expect.poll(() => client.getQueryData(['count']), { timeout: 500 }).toBeDefined();
    clearInterval(stream);
    unsubscribe();
  });
});
