/**
 * The traffic log: every exchange at the four servers and every request a player makes, live,
 * filtered, each one open in full beside the list, and exported as HAR or as a repro bundle. Where
 * the user stands in it survives a visit to another area (see view-state.ts).
 */
import { useCallback, useEffect, useRef } from 'react';
import type { TrafficFilter, TrafficSummary } from '../../../../main/engine/api/traffic-types';
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

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

export function TrafficPage() {
  const { filter, follow, active, opened, set } = useTrafficView();
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
        <TrafficFilters filter={filter} onFilter={onFilter} textRef={textRef} />
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
