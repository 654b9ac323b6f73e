import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { applyPushed } from './pushed';

/** A query function answering with what the "engine" held when it was called, a little later. */
function slowEngine(initial: string[]) {
  const engine = { items: initial, answers: 0 };
  const queryFn = async (): Promise<string[]> => {
    const answer = [...engine.items];
    engine.answers += 1;
    await new Promise((resolve) => setTimeout(resolve, 10));
    return answer;
  };
  return { engine, queryFn };
}

const append = (item: string) => (list: string[] | undefined) => (list ? [...list, item] : list);

describe('applyPushed', () => {
  it('writes into the cache when no fetch is in flight', () => {
    const client = new QueryClient();
    client.setQueryData(['list'], ['a']);
    applyPushed(client, ['list'], append('b'));
    expect(client.getQueryData(['list'])).toEqual(['a', 'b']);
  });

  it('fetches anew when an event arrives during the first fetch, whose answer predates it', async () => {
    const client = new QueryClient();
    const { engine, queryFn } = slowEngine(['a']);
    const unsubscribe = new QueryObserver(client, { queryKey: ['list'], queryFn }).subscribe(() => {});
    engine.items = ['a', 'b'];
    applyPushed(client, ['list'], append('b'));
    await expect.poll(() => client.getQueryData(['list'])).toEqual(['a', 'b']);
    expect(engine.answers).toBe(2);
    unsubscribe();
  });

  it('keeps an event applied to cached data when a refetch that predates it is on its way', async () => {
    const client = new QueryClient();
    const { engine, queryFn } = slowEngine(['a']);
    const observer = new QueryObserver(client, { queryKey: ['list'], queryFn });
    const unsubscribe = observer.subscribe(() => {});
    await expect.poll(() => client.getQueryData(['list'])).toEqual(['a']);
    void observer.refetch();
    engine.items = ['a', 'b'];
    applyPushed(client, ['list'], append('b'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(client.getQueryData(['list'])).toEqual(['a', 'b']);
    expect(client.getQueryState(['list'])?.fetchStatus).toBe('idle');
    unsubscribe();
  });
});
