import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { recentTrafficQuery } from './player-traffic';

/** An engine whose traffic log holds `rows`, answering `traffic.page` as the engine does. */
function engineWith(rows: { id: number }[]) {
  const engine = { rows, calls: 0 };
  const api = {
    call: async (name: string, input: { offset: number; limit: number }) => {
      engine.calls++;
      if (name !== 'traffic.page') throw new Error(name);
      return { total: engine.rows.length, rows: engine.rows.slice(input.offset, input.offset + input.limit) };
    },
  };
  return { engine, api: api as unknown as Parameters<typeof recentTrafficQuery>[0] };
}

describe('the recent traffic of the player workbench', () => {
  it('(audit) is read again when the page mounts again: what came while another area was shown appears', async () => {
    const client = new QueryClient();
    const { engine, api } = engineWith([{ id: 1 }]);
    const first = new QueryObserver(client, recentTrafficQuery(api));
    const off = first.subscribe(() => {});
    await expect.poll(() => client.getQueryData(recentTrafficQuery(api).queryKey)).toEqual([{ id: 1 }]);
    off();
    // Another area: no traffic event reaches the workbench, and the log grows.
    engine.rows = [{ id: 1 }, { id: 2 }];
    const again = new QueryObserver(client, recentTrafficQuery(api));
    const offAgain = again.subscribe(() => {});
    await expect.poll(() => client.getQueryData(recentTrafficQuery(api).queryKey)).toEqual([{ id: 1 }, { id: 2 }]);
    offAgain();
  });
});
