/**
 * The selection holds item ids, and the queue can lose items to an edit made elsewhere (another
 * window, a scenario, a script on the admin API). Kept as they were, such ids made "Remove 3" of
 * two items left and then failed with "no item". After each new queueVersion the selected ids are
 * looked up, and those the queue no longer has leave the selection with a notice that says so.
 */
import { useEffect, useRef, type Dispatch } from 'react';
import { ApiError, type Api } from '../../api/client';
import type { QueueEditorAction } from './queueEditorReducer';

/** How long after a new version the look starts. */
const SETTLE_MS = 300;
/** Look-ups in flight at once: a selection of hundreds must not queue hundreds of requests. */
const AT_ONCE = 8;

/** The ids of `itemIds` the queue no longer has; any other failure keeps the id (nothing is dropped on a doubt). */
export async function goneFrom(api: Api, queueId: string, itemIds: readonly string[]): Promise<Set<string>> {
  const gone = new Set<string>();
  let next = 0;
  const lookUp = async () => {
    while (next < itemIds.length) {
      const itemId = itemIds[next++]!;
      try {
        await api.call('queues.items.locate', { id: queueId, itemId });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'not_found') gone.add(itemId);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, itemIds.length) }, lookUp));
  return gone;
}

/** The editor is keyed by its queue (`QueuesPage`): one queue for the hook's whole life. */
export function useSelectionKept(
  api: Api,
  queueId: string,
  queueVersion: string,
  selected: ReadonlySet<string>,
  dispatch: Dispatch<QueueEditorAction>,
): void {
  // Read when a version comes, not a reason to look again: choosing items changes no queue.
  // (Updated before the look below, which runs after it in the same commit.)
  const selection = useRef(selected);
  useEffect(() => {
    selection.current = selected;
  }, [selected]);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  // One look at a time; versions that come during it (a generate's edits) make one more look after.
  const looking = useRef<{ again: boolean } | null>(null);

  useEffect(() => {
    if (looking.current) {
      looking.current.again = true;
      return;
    }
    const run = { again: false };
    looking.current = run;
    void (async () => {
      try {
        do {
          run.again = false;
          // A moment first: the versions of a burst of edits (a generate's) make one look, not one each.
          await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
          const ids = [...selection.current];
          if (ids.length === 0) break;
          const gone = await goneFrom(api, queueId, ids);
          // An edit elsewhere that lands during the look-ups leaves some of its items found and some
          // not: the next round finds the rest, and the notice counts both (the reducer adds up).
          if (mounted.current && gone.size > 0) dispatch({ type: 'forget', itemIds: gone });
        } while (mounted.current && run.again);
      } finally {
        looking.current = null;
      }
    })();
  }, [api, queueId, queueVersion, dispatch]);
}
