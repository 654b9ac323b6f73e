// @vitest-environment happy-dom
/**
 * Enter on a traffic row whose page is still being read (Home on a long log, then Enter at once)
 * opens it once the page is there, unless another key came first. Before, nothing opened: the
 * likely cause of a keyboard walk of the areas that failed once in CI.
 */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TrafficSummary } from '@engine-api/traffic-types';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { TrafficList } from './TrafficList';

beforeAll(() => {
  // happy-dom lays nothing out: the listbox gets a height, so the virtualizer has rows to show.
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.getAttribute('role') === 'listbox' ? 260 : 0;
    },
  });
});

afterEach(cleanup);

const TOTAL = 1_000;

/** A row of the log as the engine's traffic.page answers it (only what the list reads matters). */
const summary = (index: number) =>
  ({ id: index + 1, target: 'player', method: 'GET', path: `/e${index}` }) as unknown as TrafficSummary;

function renderList(onOpen: (entry: TrafficSummary) => void) {
  const held: (() => void)[] = [];
  renderOverFakeEngine(<List onOpen={onOpen} />, async (name, input) => {
    if (name !== 'traffic.page') return { ok: false, error: { code: 'not_found', message: name } };
    const { offset, limit } = input as { offset: number; limit: number };
    // Each page reaches the list only when the test lets it.
    await new Promise<void>((release) => held.push(release));
    const rows = Array.from({ length: Math.min(limit, TOTAL - offset) }, (_, i) => summary(offset + i));
    return { ok: true, value: { total: TOTAL, rows } as never };
  });
  return { held, list: () => screen.getByRole('listbox', { name: 'Traffic entries' }) };
}

function List({ onOpen }: { onOpen(entry: TrafficSummary): void }) {
  const [active, setActive] = useState<number | null>(2);
  return (
    <TrafficList
      filter={{}}
      total={TOTAL}
      follow={false}
      onFollow={() => undefined}
      active={active}
      onActive={setActive}
      openedId={null}
      onOpen={onOpen}
      refreshes={0}
    />
  );
}

const releaseAll = async (held: (() => void)[]) => {
  await act(async () => {
    for (const release of held.splice(0)) release();
  });
};

describe('Enter on a traffic row still being read', () => {
  it('opens the row once its page is there', async () => {
    const onOpen = vi.fn();
    const { held, list } = renderList(onOpen);
    await vi.waitFor(() => expect(held.length).toBeGreaterThan(0));

    fireEvent.keyDown(list(), { key: 'Enter' });
    expect(onOpen).not.toHaveBeenCalled();
    await releaseAll(held);

    await vi.waitFor(() => expect(onOpen).toHaveBeenCalledTimes(1));
    expect(onOpen.mock.calls[0]![0]).toMatchObject({ id: 3 });
  });

  it('drops the Enter when the list loses the focus before the page', async () => {
    const onOpen = vi.fn();
    const { held, list } = renderList(onOpen);
    await vi.waitFor(() => expect(held.length).toBeGreaterThan(0));

    fireEvent.keyDown(list(), { key: 'Enter' });
    fireEvent.blur(list());
    await releaseAll(held);

    await vi.waitFor(() => expect(list().querySelector('[data-id="3"]')).not.toBeNull());
    expect(onOpen).not.toHaveBeenCalled();
  });

  it('drops the Enter when another key comes before the page', async () => {
    const onOpen = vi.fn();
    const { held, list } = renderList(onOpen);
    await vi.waitFor(() => expect(held.length).toBeGreaterThan(0));

    fireEvent.keyDown(list(), { key: 'Enter' });
    fireEvent.keyDown(list(), { key: 'ArrowDown' });
    await releaseAll(held);

    // The page is there (its rows name their entries), and nothing was opened.
    await vi.waitFor(() => expect(list().querySelector('[data-id="3"]')).not.toBeNull());
    expect(onOpen).not.toHaveBeenCalled();
  });
});
