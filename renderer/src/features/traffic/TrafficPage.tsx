/**
 * The traffic log: every exchange at the four servers and every request a player makes, live,
 * filtered, each one open in full beside the list, and exported as HAR or as a repro bundle. Where
 * the user stands in it survives a visit to another area (see view-state.ts).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { TrafficFilter, TrafficSummary } from '@engine-api/traffic-types';
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

/**
 * What a link names: `#/traffic?request=<X-Request-Id>` (a transition's, on the Player page) or
 * `#/traffic?entry=<id>` (a contract violation's).
 */
function linkParam(hash: string, name: 'request' | 'entry'): string | null {
  const query = hash.indexOf('?');
  return query === -1 ? null : new URLSearchParams(hash.slice(query + 1)).get(name);
}

/**
 * Follows a link to one request's exchanges: only those, the player's own open; or to one entry:
 * the whole log, that entry open and in view. The link is then taken out of the address, so Back,
 * Forward or a reload find the log as it was left, not the link again.
 */
function followLink(api: ReturnType<typeof useApi>): void {
  const entry = Number(linkParam(window.location.hash, 'entry'));
  if (Number.isInteger(entry) && entry > 0) return followEntryLink(api, entry);
  const requestId = linkParam(window.location.hash, 'request');
  if (!requestId) return;
  window.history.replaceState(null, '', '#/traffic');
  const { set, linked } = useTrafficView.getState();
  set({ filter: { requestId }, follow: false, active: null, opened: null, scrollTop: 0, linked: linked + 1 });
  void api.call('traffic.page', { filter: { requestId }, offset: 0, limit: 10 }).then(({ rows }) => {
    const index = Math.max(0, rows.findIndex((row) => row.target === 'player'));
    if (rows[index] && useTrafficView.getState().filter.requestId === requestId) set({ opened: rows[index].id, active: index });
  }, () => undefined);
}

function followEntryLink(api: ReturnType<typeof useApi>, id: number): void {
  window.history.replaceState(null, '', '#/traffic');
  const { set, linked } = useTrafficView.getState();
  set({ filter: {}, follow: false, active: null, opened: id, scrollTop: 0, linked: linked + 1 });
  // Its row in view, if the log still holds it (the detail says when it does not).
  void api.call('traffic.locate', { filter: {}, id }).then(({ index }) => {
    if (index !== null && useTrafficView.getState().opened === id) set({ active: index });
  }, () => undefined);
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

export function TrafficPage() {
  const api = useApi();
  // Before the first read of the view, so a link's first render already asks for its request.
  useState(() => followLink(api));
  // Not the scroll position: the list writes it on every scroll event, and nothing here shows it.
  const { filter, follow, active, opened, linked, set } = useTrafficView(
    useShallow(({ filter, follow, active, opened, linked, set }) => ({ filter, follow, active, opened, linked, set })),
  );
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

  // A link followed while the log is open.
  useEffect(() => {
    const onHash = () => followLink(api);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [api]);

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
