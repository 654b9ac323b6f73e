/**
 * The queue's items as a virtualized listbox: only the rows in view exist, fetched a page at a
 * time, so a 100,000-item queue scrolls like a short one. Keyboard: ↑/↓ Home End PgUp PgDn move,
 * Space selects, Alt+↑/↓ moves the selection, Delete removes it (asking first: a second Delete),
 * Enter edits. Rows drag to reorder.
 * Each row shows which players are on it and whose last window holds it, and its report count.
 *
 * Alt+↑/↓ pressed again before the last move has come back (and its pages with it) waits its turn:
 * worked out from the rows on screen, it would act on items that are no longer where they show.
 */
import { useQueries } from '@tanstack/react-query';
import {
  useEffect,
  useRef,
  useState,
  type CSSProperties,
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import type { QueueListItem } from '@engine-api/queue-types';
import { useApi } from '../../api/context';
import { useVirtualListbox } from '../../components/useVirtualListbox';
import { VirtualListbox, VirtualOption } from '../../components/VirtualListbox';
import { PAGE_SIZE, queuePageQuery } from '../../queries/queues';
import { itemColumns } from './columns';
import { formatDuration, trackTitle } from './format';
import type { RowMarks } from './marks';
import styles from './ItemList.module.css';

const ROW_HEIGHT = 30;

export interface ItemListProps {
  queueId: string;
  total: number;
  active: number | null;
  /** The id of the item on the active row, as last reported through onActive. */
  activeItemId: string | null;
  /** The active row and, when it is loaded, its item's id. */
  onActive(index: number | null, itemId?: string): void;
  selected: ReadonlySet<string>;
  onSelected(ids: Set<string>): void;
  marks: RowMarks;
  onEdit(item: QueueListItem): void;
  /** Moves items after `afterItemId` (null: to the start); `activeAfter` is where the active row goes. */
  onMove(itemIds: string[], afterItemId: string | null, activeAfter: number): void;
  /** A move is on its way: the rows on screen may not show it yet. */
  moving: boolean;
  /** Asks to remove these items (the owner confirms first). */
  onRemove(itemIds: string[]): void;
  /** Items armed for removal, shown as such until confirmed or disarmed. */
  removing: ReadonlySet<string>;
  /** Bumped to scroll a row into view (a player's current item, a located item). */
  reveal: { index: number; nonce: number } | null;
}

/** The listbox's element id: where focus goes back to when a dialog's opener is gone. */
export const itemListId = (queueId: string) => `items-${queueId}`;

export function ItemList(props: ItemListProps) {
  const {
    queueId,
    total,
    active,
    activeItemId,
    onActive,
    selected,
    onSelected,
    marks,
    onEdit,
    onMove,
    moving,
    onRemove,
    removing,
    reveal,
  } = props;
  const api = useApi();
  const [drop, setDrop] = useState<{ index: number; before: boolean } | null>(null);
  const [dragging, setDragging] = useState<string[] | null>(null);
  const [anchor, setAnchor] = useState<number | null>(null);

  const listbox = useVirtualListbox({
    id: itemListId(queueId),
    count: total,
    rowHeight: ROW_HEIGHT,
    overscan: 15,
    active,
    onActive: (index) => onActive(index, itemAt(index)?.id),
    reveal,
  });
  const rows = listbox.rows;
  const firstPage = Math.floor((rows[0]?.index ?? 0) / PAGE_SIZE);
  const lastPage = Math.floor((rows.at(-1)?.index ?? 0) / PAGE_SIZE);
  const pageNumbers = total === 0 ? [] : Array.from({ length: lastPage - firstPage + 1 }, (_, i) => firstPage + i);
  const pages = useQueries({ queries: pageNumbers.map((page) => queuePageQuery(api, queueId, page)) });
  const itemAt = (index: number): QueueListItem | undefined => {
    const page = pages[Math.floor(index / PAGE_SIZE) - firstPage]?.data;
    return page?.items[index - page.offset];
  };
  const columns = itemColumns(
    total,
    pages.flatMap((page) => page.data?.items ?? []),
    marks,
  );
  // The rows on screen may be from before the last edit until the move and its refetch are done.
  const settling = moving || pages.some((page) => page.isFetching);
  /** Alt+↑/↓ presses waiting for the list to settle: +1 per step down, -1 per step up. */
  const queuedSteps = useRef(0);

  // The active row is a place in the list: after an edit, or once its page loads, the item on it
  // is the active item.
  const loadedActiveId = active === null ? undefined : itemAt(active)?.id;
  useEffect(() => {
    if (!settling && active !== null && loadedActiveId !== undefined && loadedActiveId !== activeItemId)
      onActive(active, loadedActiveId);
  }, [settling, active, loadedActiveId, activeItemId, onActive]);
  useEffect(() => {
    if (active !== null && active >= total) onActive(total > 0 ? total - 1 : null);
  }, [active, total, onActive]);

  /** The ids an action applies to: the selection, or else the active row's item. */
  const targets = (): string[] => {
    if (selected.size > 0) return [...selected];
    // While settling, the row may still show the item that was there before the last edit.
    const id = settling ? activeItemId : active === null ? undefined : itemAt(active)?.id;
    return id ? [id] : [];
  };

  const indexesOf = (ids: readonly string[]): number[] => {
    const wanted = new Set(ids);
    const found: number[] = [];
    for (const row of rows) {
      const item = itemAt(row.index);
      if (item && wanted.has(item.id)) found.push(row.index);
    }
    if (active !== null && found.length === 0 && itemAt(active) && wanted.has(itemAt(active)!.id)) found.push(active);
    return found.sort((a, b) => a - b);
  };

  /** Moves the targets one row; false when there is nothing to move or no room. */
  const moveBy = (step: -1 | 1): boolean => {
    const ids = targets();
    const at = indexesOf(ids);
    if (ids.length === 0 || at.length === 0) return false;
    if (step < 0) {
      const top = at[0]!;
      if (top === 0) return false;
      const after = top - 2 < 0 ? null : itemAt(top - 2)?.id;
      if (after === undefined) return false;
      onMove(ids, after, Math.max(0, (active ?? top) - 1));
    } else {
      const bottom = at.at(-1)!;
      if (bottom >= total - 1) return false;
      const after = itemAt(bottom + 1)?.id;
      if (!after) return false;
      onMove(ids, after, Math.min(total - 1, (active ?? bottom) + 1));
    }
    return true;
  };
  // Once settled, the next waiting step goes; one that cannot move (the edge) is dropped.
  const moveWaiting = () => {
    while (!settling && queuedSteps.current !== 0) {
      const step = queuedSteps.current > 0 ? 1 : -1;
      queuedSteps.current -= step;
      if (moveBy(step)) break;
    }
  };
  const requestMove = (step: -1 | 1) => {
    queuedSteps.current += step;
    moveWaiting();
  };
  useEffect(moveWaiting);

  /** The queue's own keys; the listbox moves the active row on the others. */
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (total === 0) return;
    if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      event.preventDefault();
      requestMove(event.key === 'ArrowUp' ? -1 : 1);
      return;
    }
    switch (event.key) {
      case ' ': {
        const item = active === null ? undefined : itemAt(active);
        if (!item) return;
        const next = new Set(selected);
        if (next.has(item.id)) next.delete(item.id);
        else next.add(item.id);
        onSelected(next);
        break;
      }
      case 'Delete':
      case 'Backspace': {
        // A held key's repeats would confirm what its first press armed.
        if (event.repeat) break;
        const ids = targets();
        if (ids.length > 0) onRemove(ids);
        break;
      }
      case 'Enter': {
        const item = active === null ? undefined : itemAt(active);
        if (item) onEdit(item);
        break;
      }
      case 'Escape':
        onSelected(new Set());
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const onRowClick = (event: MouseEvent, index: number, item: QueueListItem) => {
    onActive(index, item.id);
    if (event.metaKey || event.ctrlKey) {
      const next = new Set(selected);
      if (next.has(item.id)) next.delete(item.id);
      else next.add(item.id);
      onSelected(next);
      setAnchor(index);
    } else if (event.shiftKey && anchor !== null) {
      const next = new Set<string>();
      for (let i = Math.min(anchor, index); i <= Math.max(anchor, index); i++) {
        const row = itemAt(i);
        if (row) next.add(row.id);
      }
      onSelected(next);
    } else {
      onSelected(new Set());
      setAnchor(index);
    }
  };

  const onDragStart = (event: DragEvent, item: QueueListItem) => {
    const ids = selected.has(item.id) ? [...selected] : [item.id];
    setDragging(ids);
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', ids.join('\n'));
  };
  const onDragOver = (event: DragEvent, index: number) => {
    if (!dragging) return;
    event.preventDefault();
    const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
    const before = event.clientY < box.top + box.height / 2;
    if (drop?.index !== index || drop.before !== before) setDrop({ index, before });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    const ids = dragging;
    const target = drop;
    setDragging(null);
    setDrop(null);
    if (!ids || !target) return;
    const afterIndex = target.before ? target.index - 1 : target.index;
    const after = afterIndex < 0 ? null : itemAt(afterIndex)?.id;
    if (after === undefined || (after !== null && ids.includes(after))) return;
    onMove(ids, after, Math.max(0, afterIndex + 1));
  };

  return (
    <VirtualListbox
      listbox={listbox}
      label="Queue items"
      multiselectable
      className={styles.itemScroll}
      rowsClassName={styles.itemRows}
      style={
        {
          '--index-width': `${columns.indexPx}px`,
          '--duration-width': `${columns.durationPx}px`,
          '--id-width': `${columns.idPx}px`,
          '--marks-width': `${columns.marksPx}px`,
        } as CSSProperties
      }
      onKeyDown={onKeyDown}
      onDragEnd={() => {
        setDragging(null);
        setDrop(null);
      }}
      empty={<span className={styles.empty}>This queue has no items. Add one, generate some, or import a file.</span>}
    >
      {(row) => {
        const item = itemAt(row.index);
        const rowMarks = item ? marks.get(item.id) : undefined;
        return (
          <VirtualOption
            key={row.key}
            listbox={listbox}
            row={row}
            selected={item ? selected.has(item.id) : false}
            data-item-id={item?.id}
            data-in-window={rowMarks?.windows.length ? true : undefined}
            data-removing={item && removing.has(item.id) ? true : undefined}
            data-drop={drop?.index === row.index ? (drop.before ? 'before' : 'after') : undefined}
            className={styles.itemRow}
            draggable={!!item}
            onDragStart={item ? (event) => onDragStart(event, item) : undefined}
            onDragOver={(event) => onDragOver(event, row.index)}
            onDrop={onDrop}
            onClick={item ? (event) => onRowClick(event, row.index, item) : undefined}
            onDoubleClick={item ? () => onEdit(item) : undefined}
          >
            <span className={styles.grip} aria-hidden="true">
              ⋮⋮
            </span>
            <span className={styles.itemIndex}>{row.index + 1}</span>
            {item ? (
              <>
                {/* Title and artist share what the fixed columns leave, cut by an ellipsis: whole on hover. */}
                <span className={styles.itemTitle} data-cell="title" title={trackTitle(item.track)}>
                  {trackTitle(item.track)}
                </span>
                <span className={styles.itemArtist} data-cell="artist" title={item.track.artist?.name}>
                  {item.track.artist?.name ?? ''}
                </span>
                <span className={styles.itemDuration} data-cell="duration">
                  {formatDuration(item.track.durationMillis)}
                </span>
                <code className={styles.itemId} data-cell="id">
                  {item.id}
                </code>
                <span className={styles.itemMarks} data-cell="marks">
                  {rowMarks?.windows.map((mark) => (
                    <span
                      key={`w-${mark.key}`}
                      className={styles.windowMark}
                      style={{ background: mark.color }}
                      title={`In ${mark.label}'s last window`}
                    />
                  ))}
                  {rowMarks?.current.map((mark) => (
                    <span
                      key={`c-${mark.key}`}
                      className={styles.playerMark}
                      style={{ borderColor: mark.color, color: mark.color }}
                      title={`${mark.label} is on this item`}
                    >
                      ▶ {mark.label}
                    </span>
                  ))}
                  {item.policies && (
                    <span className={styles.policyMark} title={`Item policies: ${JSON.stringify(item.policies)}`}>
                      policies
                    </span>
                  )}
                  {item.reports && (
                    <span
                      className={styles.reportCount}
                      title={`${item.reports.count} timePlayed reports, ${item.reports.finals} final`}
                    >
                      {item.reports.count} rep
                    </span>
                  )}
                </span>
              </>
            ) : (
              <span>…</span>
            )}
          </VirtualOption>
        );
      }}
    </VirtualListbox>
  );
}
