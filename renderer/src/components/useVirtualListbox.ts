/**
 * The keyboard and scrolling of a virtualized listbox (the WAI-ARIA listbox pattern with
 * aria-activedescendant): focus stays on the listbox, the active option is a row index, and only
 * the rows in view exist, so a list of 100,000 costs what a list of 30 does. ↑/↓ move a row,
 * PageUp/PageDown a page, Home/End to the ends; the move scrolls the row into view. Neither list
 * has type-ahead: a row's text is data (times, ids), and the console's digit keys are area keys.
 *
 * What a key does to the selection, what a row holds and where its data comes from stay with the
 * list that uses it (see VirtualListbox.tsx).
 */
import { useVirtualizer, type Virtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';

export interface VirtualListboxOptions {
  /** The listbox element's id; each option's id derives from it (optionId). */
  id: string;
  count: number;
  /** Every row is this tall (px): fixed rows need no measuring, whatever their number. */
  rowHeight: number;
  /** Rows rendered beyond the view on each side. */
  overscan?: number;
  /** How far PageUp and PageDown move, in rows. */
  pageStep?: number;
  /** The row the keyboard is on, or null before any key or click. */
  active: number | null;
  onActive(index: number): void;
  /** Bumped to scroll a row to the middle of the view (a located item, a followed link). */
  reveal?: { index: number; nonce: number } | null;
}

export interface VirtualListboxState {
  id: string;
  count: number;
  rowHeight: number;
  active: number | null;
  scrollRef: RefObject<HTMLDivElement | null>;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  /** The rows that exist now: the view and its overscan. */
  rows: VirtualItem[];
  /** Makes `index` (clamped to the list) the active row and scrolls it into view. */
  goTo(index: number): void;
  /** The movement keys; any other key is left alone (not prevented). */
  onKeyDown(event: KeyboardEvent<HTMLElement>): void;
}

const DEFAULT_PAGE_STEP = 20;

/** The option element's id of row `index` in the listbox `listboxId`. */
export const optionId = (listboxId: string, index: number) => `${listboxId}-option-${index}`;

/** The rows fully in view, from the scroll position: where a first key press starts. */
export interface InView {
  first: number;
  last: number;
}

/**
 * The row a movement key goes to, or null for a key that does not move. With no active row, a
 * key starts from the rows in view (down from the first, up from the last), not from the top of
 * a list the user has scrolled away from. The result is clamped: the list does not wrap.
 */
export function listboxTarget(
  key: string,
  active: number | null,
  count: number,
  inView: InView,
  pageStep = DEFAULT_PAGE_STEP,
): number | null {
  if (count === 0) return null;
  let target: number;
  switch (key) {
    case 'ArrowDown':
      target = active === null ? inView.first : active + 1;
      break;
    case 'ArrowUp':
      target = active === null ? inView.last : active - 1;
      break;
    case 'PageDown':
      target = (active ?? inView.first) + pageStep;
      break;
    case 'PageUp':
      target = (active ?? inView.last) - pageStep;
      break;
    case 'Home':
      target = 0;
      break;
    case 'End':
      target = count - 1;
      break;
    default:
      return null;
  }
  return Math.max(0, Math.min(count - 1, target));
}

export function useVirtualListbox({
  id,
  count,
  rowHeight,
  overscan = 10,
  pageStep = DEFAULT_PAGE_STEP,
  active,
  onActive,
  reveal = null,
}: VirtualListboxOptions): VirtualListboxState {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer re-renders its owner itself on scroll
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan,
  });
  const rows = virtualizer.getVirtualItems();

  // Once the row exists: a list whose rows are still loading (count 0) reveals it when they come.
  const revealable = reveal !== null && reveal.index < count;
  useEffect(() => {
    if (reveal && revealable) virtualizer.scrollToIndex(reveal.index, { align: 'center' });
  }, [reveal, revealable, virtualizer]);

  const inView = (): InView => {
    const element = scrollRef.current;
    const top = element?.scrollTop ?? 0;
    const bottom = top + (element?.clientHeight ?? 0);
    const shown = rows.filter((row) => row.start >= top && row.end <= bottom);
    const first = shown[0]?.index ?? rows[0]?.index ?? 0;
    return { first, last: shown.at(-1)?.index ?? first };
  };

  const goTo = (index: number) => {
    const next = Math.max(0, Math.min(count - 1, index));
    onActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const target = listboxTarget(event.key, active, count, inView(), pageStep);
    if (target === null) return;
    event.preventDefault();
    goTo(target);
  };

  return { id, count, rowHeight, active, scrollRef, virtualizer, rows, goTo, onKeyDown };
}
