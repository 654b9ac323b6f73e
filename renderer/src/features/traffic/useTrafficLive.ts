/**
 * Keeps the traffic list live: `traffic.appended` batches refresh what is on screen (the count
 * and the pages in view), at most a few times a second, and never more often than four times the
 * last refresh took, so a slow filter over a full log cannot keep the engine busy answering it.
 * `traffic.reset` (cleared, retention changed) reads everything again. No event reaches the list
 * while the area is closed, and its pages are cached as fresh: on arrival it reads what is on
 * screen afresh, or coming back showed the log as it was left (13 entries shown while
 * the log held 119, until the next request came).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApi } from '../../api/context';
import { readAgain } from '../../queries/read-again';
import { trafficKeys } from '../../queries/traffic';

const MIN_INTERVAL_MS = 250;

/** Answers how many refreshes happened, so the list can keep its rows in place across them. */
export function useTrafficLive(): number {
  const api = useApi();
  const queryClient = useQueryClient();
  const [refreshes, setRefreshes] = useState(0);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let running = false;
    let pending = false;
    let nextAllowed = 0;

    /** `arrival`: reads started with the area took the log as it is now; none is read twice. */
    const refresh = async (arrival = false) => {
      timer = null;
      running = true;
      pending = false;
      const started = performance.now();
      // First the list notes where it stands, then the new rows come.
      setRefreshes((n) => n + 1);
      if (arrival) await queryClient.invalidateQueries({ queryKey: trafficKeys.list });
      else await readAgain(queryClient, { queryKey: trafficKeys.list });
      running = false;
      nextAllowed = performance.now() + Math.max(MIN_INTERVAL_MS, 4 * (performance.now() - started));
      if (pending) schedule();
    };
    const schedule = () => {
      if (running) {
        pending = true;
        return;
      }
      timer ??= setTimeout(() => void refresh(), Math.max(0, nextAllowed - performance.now()));
    };

    const offAppended = api.on('traffic.appended', schedule);
    // The log moved on while the area was away: catch up now, not on the next request.
    void refresh(true);
    const offReset = api.on('traffic.reset', () => void readAgain(queryClient, { queryKey: trafficKeys.all }));
    return () => {
      offAppended();
      offReset();
      if (timer) clearTimeout(timer);
    };
  }, [api, queryClient]);

  return refreshes;
}
