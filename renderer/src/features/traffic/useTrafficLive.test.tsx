// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transport } from '../../api/client';
import type { EngineEvent } from '@engine-api/events';
import type { TrafficFilter } from '@engine-api/traffic-types';
import { trafficKeys, useTrafficCount } from '../../queries/traffic';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { useTrafficLive } from './useTrafficLive';

/** The traffic area's count, with a search to apply. */
function LiveCount() {
  const [filter, setFilter] = useState<TrafficFilter>({});
  useTrafficLive();
  const { data, isFetched } = useTrafficCount(filter);
  return (
    <>
      <button onClick={() => setFilter({ text: 'marker' })}>Search</button>
      <span data-testid="count">{isFetched ? String(data) : 'counting'}</span>
    </>
  );
}

/** As the area is built: the list (its count, its pages) below, the live hook in the area itself. */
function Count() {
  const { data } = useTrafficCount({});
  return <span data-testid="count">{String(data)}</span>;
}
function Area() {
  useTrafficLive();
  return <Count />;
}

afterEach(cleanup);

describe('useTrafficLive', () => {
  it('reads what the area shows once on arrival, not twice', async () => {
    let calls = 0;
    renderOverFakeEngine(<Area />, async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { ok: true, value: { total: 3, rows: [] } as never };
    });
    await waitFor(() => expect(screen.getByTestId('count').textContent).toBe('3'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(calls).toBe(1);
  });

  it('counts an entry stored while a new filter’s first count was on its way', async () => {
    // The log as the engine holds it; a count reads it when the engine takes the call.
    let stored = 0;
    let holdNext = false;
    let release: (() => void) | undefined;
    const call: Transport['call'] = async (name, input) => {
      expect(name).toBe('traffic.page');
      const total = (input as { filter: TrafficFilter }).filter.text === 'marker' ? stored : 7;
      if (holdNext) {
        holdNext = false;
        await new Promise<void>((resolve) => (release = resolve));
      }
      return { ok: true, value: { total, rows: [] } as never };
    };
    const listeners = new Set<(event: EngineEvent) => void>();
    const subscribe: Transport['subscribe'] = (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    };
    const { queryClient } = renderOverFakeEngine(<LiveCount />, call, subscribe);
    await waitFor(() => expect(screen.getByTestId('count').textContent).toBe('7'));
    // Past the refresh the area makes on arrival.
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));

    // The search is applied: its first count reads the log before the request is stored…
    holdNext = true;
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(release).toBeDefined());
    // …the request is stored and said so while that count is still on its way…
    stored = 1;
    act(() => {
      for (const listener of listeners)
        listener({ name: 'traffic.appended', seq: 1, data: { count: 1, lastId: 1, dropped: 0 } });
    });
    // (The refresh it causes has run: on a busy machine the throttle can put it later, and a
    // refresh after the answer would pass without the fix.)
    await waitFor(() =>
      expect(queryClient.getQueryState(trafficKeys.count({ text: 'marker' }))?.isInvalidated).toBe(true),
    );
    // …and its answer, 0, comes after: the count must not stay at it.
    act(() => release!());
    await waitFor(() => expect(screen.getByTestId('count').textContent).toBe('1'), { timeout: 2_000 });
  });
});
