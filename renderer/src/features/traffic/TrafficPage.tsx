/**
 * The traffic log: every exchange at the four servers and every request a player makes, live,
 * filtered, each one open in full beside the list, and exported as HAR or as a repro bundle. Where
 * the user stands in it survives a visit to another area (see view-state.ts).
 */
import { useCallback, useEffect, useRef } from 'react';
import type { TrafficFilter, TrafficSummary } from '../../../../main/engine/api/traffic-types';
import { useApi } from '../../api/context';
import { useTrafficCount } from '../../queries/traffic';
import { cleanFilter } from './format';
import { TrafficDetail } from './TrafficDetail';
import { TrafficFilters } from './TrafficFilters';
import { TrafficList } from './TrafficList';
import { TrafficSettingsBar } from './TrafficSettingsBar';
import { TrafficTransfer } from './TrafficTransfer';
import { useTrafficLive } from './useTrafficLive';
import { useTrafficView } from './view-state';
import './traffic.css';

/** The request a link names: `#/traffic?request=<X-Request-Id>` (a transition's, on the Player page). */
function linkedRequest(hash: string): string | null {
  const query = hash.indexOf('?');
  return query === -1 ? null : new URLSearchParams(hash.slice(query + 1)).get('request');
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

export function TrafficPage() {
  const { filter, follow, active, opened, linked, set } = useTrafficView();
  const api = useApi();
  const textRef = useRef<HTMLInputElement>(null);
  const refreshes = useTrafficLive();
  const { data: total = 0, isFetched } = useTrafficCount(filter);

  const onFilter = useCallback(
    (change: Partial<TrafficFilter>) => set({ filter: cleanFilter({ ...useTrafficView.getState().filter, ...change }), active: null }),
    [set],
  );
  const onOpen = useCallback((entry: TrafficSummary) => set({ opened: entry.id }), [set]);
  const setFollow = useCallback((next: boolean) => set({ follow: next }), [set]);
  const setActive = useCallback((next: number | null) => set({ active: next }), [set]);

  // A link to one request's exchanges: only those, the player's own open.
  useEffect(() => {
    const follow = () => {
      const requestId = linkedRequest(window.location.hash);
      const view = useTrafficView.getState();
      if (!requestId || view.filter.requestId === requestId) return;
      set({ filter: { requestId }, follow: false, active: null, opened: null, scrollTop: 0, linked: view.linked + 1 });
      void api.call('traffic.page', { filter: { requestId }, offset: 0, limit: 10 }).then(({ rows }) => {
        const index = Math.max(0, rows.findIndex((row) => row.target === 'player'));
        if (rows[index] && useTrafficView.getState().filter.requestId === requestId) set({ opened: rows[index].id, active: index });
      }, () => undefined);
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [api, set]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      event.preventDefault();
      textRef.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <section className="page traffic-page" aria-labelledby="page-title">
      <header className="page-header traffic-header">
        <h1 id="page-title">Traffic</h1>
        <span className="muted" aria-label="Entries shown" data-total={isFetched ? total : undefined}>
          {total.toLocaleString('en-US')} {total === 1 ? 'entry' : 'entries'}
        </span>
        <TrafficTransfer filter={filter} total={total} />
      </header>
      <div className="traffic-toolbar">
        <TrafficFilters key={linked} filter={filter} onFilter={onFilter} textRef={textRef} />
        <button type="button" className="follow" aria-pressed={follow} onClick={() => setFollow(!follow)} title="Keep the newest entry in view (End)">
          Follow
        </button>
        <TrafficSettingsBar />
      </div>
      <div className="traffic-body">
        <TrafficList
          filter={filter}
          total={total}
          follow={follow}
          onFollow={setFollow}
          active={active}
          onActive={setActive}
          openedId={opened}
          onOpen={onOpen}
          refreshes={refreshes}
        />
        <TrafficDetail id={opened} />
      </div>
    </section>
  );
}
