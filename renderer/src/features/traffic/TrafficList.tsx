/**
 * The traffic log as a virtualized listbox: only the rows in view exist, read a page at a time by
 * offset, so 100,000 entries scroll like ten. "Follow" keeps the newest entry in view; scrolling
 * up, a key that moves up, or a click stops following. While not following, the rows on screen
 * stay put when the retention cap drops the oldest entries (the list asks where its top entry went).
 * Keyboard: ↑/↓ PgUp/PgDn Home/End move, Enter opens the entry (once its page is read, if it is
 * still on its way: Home on a long log, then Enter at once).
 */
import { useQueries } from '@tanstack/react-query';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { TrafficFilter, TrafficSummary } from '@engine-api/traffic-types';
import { useApi } from '../../api/context';
import { useVirtualListbox } from '../../components/useVirtualListbox';
import { VirtualListbox, VirtualOption } from '../../components/VirtualListbox';
import { useEngineState } from '../../queries/engine-state';
import { TRAFFIC_PAGE_SIZE, trafficPageQuery } from '../../queries/traffic';
import { formatEngineClock, formatEngineTime } from '../../format/engine-time';
import { faultText, statusClass, statusText } from './format';
import { useTrafficView } from './view-state';
import styles from './TrafficList.module.css';

const ROW_HEIGHT = 26;
/** Keys that move up the log: reading back, so the newest entry is no longer followed. */
const KEYS_UP = new Set(['ArrowUp', 'PageUp', 'Home']);

export interface TrafficListProps {
  filter: TrafficFilter;
  total: number;
  follow: boolean;
  onFollow(follow: boolean): void;
  /** The row the keyboard is on. */
  active: number | null;
  onActive(index: number | null): void;
  /** The entry the detail pane shows. */
  openedId: number | null;
  onOpen(entry: TrafficSummary): void;
  /** Bumped each time the live hook refreshed the list. */
  refreshes: number;
}

export function TrafficList({
  filter,
  total,
  follow,
  onFollow,
  active,
  onActive,
  openedId,
  onOpen,
  refreshes,
}: TrafficListProps) {
  const api = useApi();
  const headRef = useRef<HTMLDivElement>(null);
  // A linked entry, once found, is scrolled to the middle of the list (view-state.ts).
  const reveal = useTrafficView((view) => view.reveal);
  const listbox = useVirtualListbox({
    id: 'traffic-entries',
    count: total,
    rowHeight: ROW_HEIGHT,
    overscan: 10,
    active,
    onActive,
    reveal,
  });
  const { rows, scrollRef, virtualizer } = listbox;
  const firstPage = Math.floor((rows[0]?.index ?? 0) / TRAFFIC_PAGE_SIZE);
  const lastPage = Math.floor((rows.at(-1)?.index ?? 0) / TRAFFIC_PAGE_SIZE);
  const pageNumbers = total === 0 ? [] : Array.from({ length: lastPage - firstPage + 1 }, (_, i) => firstPage + i);
  const pages = useQueries({ queries: pageNumbers.map((page) => trafficPageQuery(api, filter, page)) });
  // The player column names players; the id stands in for one that is gone.
  const players = useEngineState().data?.players;
  const playerNames = new Map(players?.map((p) => [p.id, p.name]));
  const entryAt = (index: number): TrafficSummary | undefined =>
    pages[Math.floor(index / TRAFFIC_PAGE_SIZE) - firstPage]?.data?.rows[index % TRAFFIC_PAGE_SIZE];

  // Back from another area: the list where it was left (following, it goes to the end anyway).
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || total === 0) return;
    restored.current = true;
    // A linked entry being revealed decides where the list stands, not where it was left.
    const { scrollTop, reveal: revealing } = useTrafficView.getState();
    if (!follow && !revealing) virtualizer.scrollToOffset(scrollTop);
  }, [follow, total, virtualizer]);
  // A reveal is for this visit: back from another area, the list stands where it was left.
  useEffect(() => () => useTrafficView.getState().set({ reveal: null }), []);

  // Following: the newest entry stays in view as entries arrive.
  useEffect(() => {
    if (follow && total > 0) virtualizer.scrollToIndex(total - 1, { align: 'end' });
  }, [follow, total, refreshes, virtualizer]);

  // Not following: keep the top row's entry where it was when the oldest entries are dropped.
  // The list is refreshed after this runs, so the rows read here are the ones on screen now.
  useEffect(() => {
    const element = scrollRef.current;
    if (follow || refreshes === 0 || !element) return;
    const top = element.scrollTop;
    const index = Math.floor(top / ROW_HEIGHT);
    const entry = entryAt(index);
    if (!entry) return;
    let cancelled = false;
    void api.call('traffic.locate', { filter, id: entry.id }).then(
      (found) => {
        // Moved meanwhile (Home, a scroll): the row measured is no longer the top one, and
        // shifting by it would carry the list back to where it stood (a Home undone under load).
        if (cancelled || element.scrollTop !== top || found.index === null || found.index === index) return;
        element.scrollTop += (found.index - index) * ROW_HEIGHT;
        if (active !== null) onActive(Math.max(0, active + found.index - index));
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
    // Only a refresh moves rows; the other values are read as they are then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refreshes]);

  // Enter on a row whose page is still being read opens it once it is there, if the list still
  // stands on that row of that filter and kept the focus; another key or a click drops it.
  // Before, the key did nothing in that moment (Home on a long log, then Enter at once): the
  // likely cause of a keyboard walk of the areas that failed once in CI.
  const openWhenRead = useRef<{ index: number; filter: TrafficFilter } | null>(null);
  const activeEntry = active === null ? undefined : entryAt(active);
  useEffect(() => {
    const waiting = openWhenRead.current;
    if (!waiting) return;
    if (waiting.index !== active || waiting.filter !== filter) openWhenRead.current = null;
    else if (activeEntry) {
      openWhenRead.current = null;
      onOpen(activeEntry);
    }
  }, [active, activeEntry, filter, onOpen]);

  /** Enter opens the active entry; the listbox moves the active row, and moving says whether to follow. */
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (total === 0) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      if (activeEntry) onOpen(activeEntry);
      openWhenRead.current = !activeEntry && active !== null ? { index: active, filter } : null;
      return;
    }
    openWhenRead.current = null;
    if (KEYS_UP.has(event.key)) onFollow(false);
    else if (event.key === 'End') onFollow(true);
  };

  return (
    <div className={styles.list}>
      <div ref={headRef} className={styles.head} aria-hidden="true">
        <div className={styles.row}>
          {/* Listed as the exchanges end, so a request that waited on others comes after them. */}
          <span title="When the request started, on the engine clock. Entries are listed as their exchanges end.">
            Engine time
          </span>
          <span className={styles.wall} title="When the request started, on your computer's clock">
            Wall time
          </span>
          <span>Target</span>
          <span title="The player that sent the request, or that the server's entry names (X-Player-Id)">Player</span>
          <span>Method</span>
          <span>Path</span>
          <span>Reason</span>
          <span>Status</span>
          <span className={styles.num}>Latency</span>
          <span className={styles.num}>Retry</span>
          <span title="Injected fault">⚡</span>
        </div>
      </div>
      <VirtualListbox
        listbox={listbox}
        label="Traffic entries"
        className={styles.scroll}
        rowsClassName={styles.rows}
        onKeyDown={onKeyDown}
        empty={`No traffic ${Object.keys(filter).length ? 'matches these filters' : 'yet: requests to the four servers and the players show up here as they happen'}.`}
        onScroll={(event) => {
          if (headRef.current) headRef.current.scrollLeft = event.currentTarget.scrollLeft;
          useTrafficView.getState().set({ scrollTop: event.currentTarget.scrollTop });
        }}
        onWheel={(event) => {
          if (event.deltaY < 0) onFollow(false);
        }}
        onBlur={() => {
          // Gone elsewhere (the filters, the detail pane): an Enter still waiting is dropped.
          openWhenRead.current = null;
        }}
        onPointerDown={(event) => {
          // A click opens what it clicks: an Enter still waiting for its row is dropped.
          openWhenRead.current = null;
          // The scrollbar: grabbing it means reading back.
          if (event.target === event.currentTarget && event.nativeEvent.offsetX > event.currentTarget.clientWidth)
            onFollow(false);
        }}
      >
        {(row) => {
          const entry = entryAt(row.index);
          return (
            <VirtualOption
              key={row.key}
              listbox={listbox}
              row={row}
              selected={entry ? entry.id === openedId : false}
              className={styles.row}
              data-id={entry?.id}
              data-status={entry ? statusClass(entry.status) : undefined}
              data-fault={entry?.fault ? true : undefined}
              onClick={
                entry
                  ? () => {
                      onFollow(false);
                      onActive(row.index);
                      onOpen(entry);
                    }
                  : undefined
              }
            >
              {entry ? (
                <Cells
                  entry={entry}
                  playerName={entry.playerId ? (playerNames.get(entry.playerId) ?? entry.playerId) : ''}
                />
              ) : (
                <span className={styles.loading}>…</span>
              )}
            </VirtualOption>
          );
        }}
      </VirtualListbox>
    </div>
  );
}

function Cells({ entry, playerName }: { entry: TrafficSummary; playerName: string }) {
  return (
    <>
      {/* The date is in the title: a day's jump of the engine clock (+24h) keeps the same times. */}
      <code className={styles.time} title={formatEngineTime(entry.at, { millis: true })}>
        {formatEngineClock(entry.at)}
      </code>
      <code className={`${styles.time} ${styles.wall} muted`} title={formatEngineTime(entry.wallAt, { millis: true })}>
        {formatEngineClock(entry.wallAt)}
      </code>
      <span className={styles.target} data-target={entry.target}>
        {entry.target}
      </span>
      <span
        data-testid="traffic-player"
        title={
          entry.playerId && playerName !== entry.playerId
            ? `${playerName} (${entry.playerId})`
            : (entry.playerId ?? undefined)
        }
      >
        {playerName}
      </span>
      <code>{entry.method}</code>
      <PathCell path={entry.path} />
      <code title={entry.reason ?? undefined}>{entry.reason ?? ''}</code>
      <code className={styles.status} data-testid="traffic-status">
        {statusText(entry)}
      </code>
      <span className={styles.num}>{entry.latencyMs === null ? '' : `${entry.latencyMs} ms`}</span>
      <span className={styles.num}>{entry.retry ? `#${entry.retry}` : ''}</span>
      <span className={styles.fault} data-testid="traffic-fault">
        {entry.fault ? (
          <span title={faultText(entry.fault)} aria-label={faultText(entry.fault)}>
            ⚡
          </span>
        ) : (
          ''
        )}
      </span>
    </>
  );
}

/**
 * A long path is cut in its middle: the head gives way first, then the last segment (`itemWindow`,
 * `loadCloudQueue`) at its start, so both ends show. The whole path is the title, and is in the
 * row's accessible name: the option is named by its text, which the CSS clips but never removes.
 */
function PathCell({ path }: { path: string }) {
  const cut = path.lastIndexOf('/', path.length - 2) + 1;
  return (
    <code className={styles.path} title={path}>
      <span className={styles.pathHead}>{path.slice(0, cut)}</span>
      <span className={styles.pathTail}>
        <span dir="ltr">{path.slice(cut)}</span>
      </span>
    </code>
  );
}
