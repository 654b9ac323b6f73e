// @vitest-environment happy-dom
import { renderHook, waitFor } from '@testing-library/react';
import { useReducer } from 'react';
import { describe, expect, it } from 'vitest';
import { Api } from '../../api/client';
import { initialQueueEditorState, queueEditorReducer } from './queueEditorReducer';
import { goneFrom, useSelectionKept } from './useSelectionKept';

/** A queue that has `present`; `broken` fails with something other than not_found. */
function queueApi(present: readonly string[], broken: readonly string[] = []) {
  let inFlight = 0;
  let most = 0;
  const api = new Api({
    kind: 'http',
    subscribe: () => () => undefined,
    call: async (name, input) => {
      expect(name).toBe('queues.items.locate');
      const { itemId } = input as { id: string; itemId: string };
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      if (broken.includes(itemId)) return { ok: false, error: { code: 'internal', message: 'store busy' } };
      if (!present.includes(itemId))
        return { ok: false, error: { code: 'not_found', message: `queue q has no item ${itemId}` } };
      return { ok: true, value: { index: present.indexOf(itemId), queueVersion: 'v' } as never };
    },
  });
  return { api, most: () => most };
}

describe('goneFrom', () => {
  it('names exactly the ids the queue no longer has', async () => {
    const { api } = queueApi(['item-1', 'item-3']);
    expect([...(await goneFrom(api, 'q', ['item-1', 'item-2', 'item-3', 'item-4']))].sort()).toEqual([
      'item-2',
      'item-4',
    ]);
    expect((await goneFrom(api, 'q', [])).size).toBe(0);
  });

  it('keeps an id whose look-up failed for another reason: nothing leaves the selection on a doubt', async () => {
    const { api } = queueApi(['item-1'], ['item-2']);
    expect([...(await goneFrom(api, 'q', ['item-1', 'item-2', 'item-3']))]).toEqual(['item-3']);
  });

  it('looks up at most eight at once, whatever the selection holds', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => `item-${i + 1}`);
    const { api, most } = queueApi(ids.slice(0, 150));
    expect((await goneFrom(api, 'q', ids)).size).toBe(150);
    expect(most()).toBe(8);
  });
});

describe('useSelectionKept', () => {
  it('counts both halves of a removal that lands between its look-ups in one notice', async () => {
    const present = new Set(['item-1', 'item-2', 'item-3', 'item-4', 'item-5']);
    // item-3's look-up is answered only once the removal has landed; item-1's is answered before it.
    let held: (() => void) | undefined;
    const api = new Api({
      kind: 'http',
      subscribe: () => () => undefined,
      call: async (_name, input) => {
        const { itemId } = input as { id: string; itemId: string };
        if (itemId === 'item-3' && present.has('item-3')) await new Promise<void>((resolve) => (held = resolve));
        if (!present.has(itemId)) return { ok: false, error: { code: 'not_found', message: `no item ${itemId}` } };
        return { ok: true, value: { index: 0, queueVersion: 'v' } as never };
      },
    });
    const { result, rerender, unmount } = renderHook(
      ({ version }: { version: string }) => {
        const [state, dispatch] = useReducer(queueEditorReducer, {
          ...initialQueueEditorState,
          selected: new Set(['item-1', 'item-2', 'item-3']),
        });
        useSelectionKept(api, 'q', version, state.selected, dispatch);
        return state;
      },
      { initialProps: { version: 'v1' } },
    );
    await waitFor(() => expect(held).toBeDefined());
    // The removal elsewhere lands while the look is under way, and its version comes.
    present.delete('item-1');
    present.delete('item-3');
    rerender({ version: 'v2' });
    held!();
    await waitFor(() => expect([...result.current.selected]).toEqual(['item-2']));
    expect(result.current.notice).toBe('2 selected items removed elsewhere: no longer selected.');
    unmount();
  });
});
