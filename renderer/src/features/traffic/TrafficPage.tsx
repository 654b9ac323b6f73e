/**
 * The traffic log: every exchange at the four servers and every request a player makes, live,
 * filtered, each one open in full beside the list, and exported as HAR or as a repro bundle. The
 * filters and the open entry are the address (`#/traffic?target=player&entry=12`, router/search.ts),
 * so a link, a reload or Back opens the same place; how the user reads it (follow, the row, the
 * scroll) survives a visit to another area (see view-state.ts).
 */
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, type CSSProperties } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { TrafficFilter, TrafficSummary } from '@engine-api/traffic-types';
import { useApi } from '../../api/context';
import { Splitter, usePaneWidth } from '../../components/Splitter';
import { useTrafficCount } from '../../queries/traffic';
import { useAreaPlace } from '../../router/area-memory';
import { trafficFilterOf, trafficSearch, trafficSearchOf, type TrafficSearch } from '../../router/search';
import { matchesShortcut, shortcutOf } from '../../shortcuts/shortcuts';
import { TrafficDetail } from './TrafficDetail';
import { TrafficFilters } from './TrafficFilters';
import { TrafficList } from './TrafficList';
import { TrafficSettingsBar } from './TrafficSettingsBar';
import { TrafficTransfer } from './TrafficTransfer';
import { useTrafficLive } from './useTrafficLive';
import { useTrafficView } from './view-state';
import styles from './TrafficPage.module.css';

const route = getRouteApi('/traffic');

/**
 * The entry's pane beside the list (TrafficPage.module.css): resizable, and the list keeps its
 * columns' width, read from the CSS, which leaves out a column where the area is narrower.
 */
const DETAIL_WIDTH = { initial: 420, min: 280, max: 1200, keepList: '--traffic-row-min-width' } as const;

/** One string per place in the log: equal places, equal keys (undefined fields drop out). */
function placeKey(search: TrafficSearch): string {
  return JSON.stringify(trafficSearch(search));
}

type Api = ReturnType<typeof useApi>;

/**
 * An address followed from outside. One entry (a violation's or a verdict's link, a reload): the
 * list stops following and its row is found. One request without an entry (a transition's link):
 * the player's own exchange of it is opened, as the link means "what the player sent".
 */
function arrive(api: Api, search: TrafficSearch, key: string, openEntry: (entry: number) => void): void {
  const { set, linked } = useTrafficView.getState();
  const stillHere = () => useTrafficView.getState().shown === key;
  set({
    shown: key,
    linked: linked + 1,
    active: null,
    ...(search.entry || search.request ? { follow: false, scrollTop: 0 } : {}),
  });
  const filter = trafficFilterOf(search);
  if (search.entry) {
    const id = search.entry;
    // Its row becomes the keyboard's (↑/↓ go on from it), if the log still holds it; the detail says when it does not.
    void api.call('traffic.locate', { filter, id }).then(
      ({ index }) => {
        // ...and brought into view: a link to an old entry must not open on the top of the log.
        if (index !== null && stillHere()) set({ active: index, reveal: { index, nonce: performance.now() } });
      },
      () => undefined,
    );
  } else if (search.request) {
    void api.call('traffic.page', { filter, offset: 0, limit: 10 }).then(
      ({ rows }) => {
        const index = Math.max(
          0,
          rows.findIndex((row) => row.target === 'player'),
        );
        if (!rows[index] || !stillHere()) return;
        set({ active: index, reveal: { index, nonce: performance.now() } });
        openEntry(rows[index].id);
      },
      () => undefined,
    );
  }
}

export function TrafficPage() {
  const api = useApi();
  const log = useAreaPlace('traffic');
  const search = route.useSearch();
  const key = placeKey(search);
  // One object per filter, so opening another entry does not read the list afresh.
  const filterKey = JSON.stringify(trafficFilterOf(search));
  const filter = useMemo(() => JSON.parse(filterKey) as TrafficFilter, [filterKey]);
  const opened = search.entry ?? null;
  // Not the scroll position: the list writes it on every scroll event, and nothing here shows it.
  const { follow, active, linked, set } = useTrafficView(
    useShallow(({ follow, active, linked, set }) => ({ follow, active, linked, set })),
  );
  const textRef = useRef<HTMLInputElement>(null);
  const [detailWidth, setDetailWidth] = usePaneWidth('traffic-detail', DETAIL_WIDTH.initial, DETAIL_WIDTH);
  const refreshes = useTrafficLive();
  const { data: total = 0, isFetched } = useTrafficCount(filter);

  /** Another place in the log, chosen here (not a link to follow: see `shown`). */
  const place = useCallback(
    (next: TrafficSearch) => {
      const validated = trafficSearch(next);
      useTrafficView.getState().set({ shown: placeKey(validated) });
      log.go(validated);
    },
    [log],
  );
  const here = useCallback(() => trafficSearch(log.current()), [log]);

  /**
   * A new filter. The open entry stays open only if the new filter keeps it: the detail pane is
   * the list's open row, and an entry beside a list that leaves it out ("0 entries" next to a
   * 503) reads as a row of it. It is closed, and dropped from the address, rather than
   * shown as "outside the filter": one rule, nothing to tell apart, and the count and the pane
   * never disagree.
   */
  const onFilter = useCallback(
    (change: Partial<TrafficFilter>) => {
      const now = here();
      set({ active: null });
      const next = { ...trafficSearchOf({ ...trafficFilterOf(now), ...change }), entry: now.entry };
      place(next);
      if (next.entry === undefined) return;
      const entry = next.entry;
      void api.call('traffic.locate', { filter: trafficFilterOf(next), id: entry }).then(
        ({ index }) => {
          const current = here();
          // Only if the user is still there: a later filter or entry decides for itself.
          if (index === null && current.entry === entry && placeKey(current) === placeKey(next))
            place({ ...current, entry: undefined });
        },
        () => undefined,
      );
    },
    [api, here, place, set],
  );
  const onOpen = useCallback((entry: TrafficSummary) => place({ ...here(), entry: entry.id }), [here, place]);
  const setFollow = useCallback((next: boolean) => set({ follow: next }), [set]);
  const setActive = useCallback((next: number | null) => set({ active: next }), [set]);

  // An address this page did not write: a link, a reload, Back or Forward, the palette.
  useEffect(() => {
    if (useTrafficView.getState().shown === key) return;
    const search = JSON.parse(key) as TrafficSearch;
    arrive(api, search, key, (entry) => place({ ...search, entry }));
  }, [api, key, place]);

  useEffect(() => {
    const searchKey = shortcutOf('trafficSearch');
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || !matchesShortcut(searchKey, event)) return;
      event.preventDefault();
      textRef.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <section className={styles.page} aria-labelledby="page-title">
      <header className={`page-header ${styles.header}`}>
        <h1 id="page-title">Traffic</h1>
        <span className="muted" aria-label="Entries shown" data-total={isFetched ? total : undefined}>
          {isFetched ? `${total.toLocaleString('en-US')} ${total === 1 ? 'entry' : 'entries'}` : 'counting…'}
        </span>
        <TrafficTransfer filter={filter} total={total} />
      </header>
      <div className={styles.toolbar}>
        <TrafficFilters key={linked} filter={filter} onFilter={onFilter} textRef={textRef} />
        <button
          type="button"
          className={styles.follow}
          aria-pressed={follow}
          onClick={() => setFollow(!follow)}
          title="Keep the newest entry in view (End)"
        >
          Follow
        </button>
        <TrafficSettingsBar />
      </div>
      <div className={styles.body} style={{ '--detail-width': `${detailWidth}px` } as CSSProperties}>
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
        <Splitter
          label="Resize the entry details"
          controls="traffic-detail"
          value={detailWidth}
          min={DETAIL_WIDTH.min}
          max={DETAIL_WIDTH.max}
          keepBefore={DETAIL_WIDTH.keepList}
          onChange={setDetailWidth}
          className={styles.splitter}
        />
        <TrafficDetail id={opened} />
      </div>
    </section>
  );
}
