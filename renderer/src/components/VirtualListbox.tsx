/**
 * A virtualized listbox's markup, for a list driven by useVirtualListbox: the scroll element is
 * the listbox (one Tab stop, aria-activedescendant on the active option), and each option says
 * where it stands in the whole list (aria-setsize, aria-posinset), since only a window of them
 * exists. Options carry no aria-label: a row is named by the text it shows, so its accessible
 * name always contains its visible text (axe's label-content-name-mismatch).
 *
 * A hook and two small components, not one component with render props: both lists need the
 * rows in view before they render (to read the pages of data those rows fall in), and each row
 * carries its list's own handlers (drag to reorder, click to open).
 */
import type { VirtualItem } from '@tanstack/react-virtual';
import type { HTMLAttributes, KeyboardEvent, ReactNode } from 'react';
import { optionId, type VirtualListboxState } from './useVirtualListbox';
import styles from './VirtualListbox.module.css';

export interface VirtualListboxProps extends Omit<
  HTMLAttributes<HTMLDivElement>,
  'id' | 'role' | 'children' | 'onKeyDown' | 'tabIndex'
> {
  listbox: VirtualListboxState;
  /** The listbox's accessible name. */
  label: string;
  multiselectable?: boolean;
  /** The class of the element as tall as every row together, inside which the rows are placed (a CSS module key, so typed as possibly undefined). */
  rowsClassName: string | undefined;
  /**
   * The list's own keys (select, open, remove), before the movement keys: a key it prevents
   * (event.preventDefault()) does not move the active row.
   */
  onKeyDown?(event: KeyboardEvent<HTMLDivElement>): void;
  /** What an empty list says instead of rows. */
  empty?: ReactNode;
  /** One VirtualOption per row in view. */
  children(row: VirtualItem): ReactNode;
}

export function VirtualListbox({
  listbox,
  label,
  multiselectable,
  rowsClassName,
  onKeyDown,
  empty,
  children,
  ...rest
}: VirtualListboxProps) {
  const { id, active, count, rows, virtualizer, scrollRef } = listbox;
  // Only an option that exists can be pointed at: one scrolled out of the window has no element.
  const activeShown = active !== null && rows.some((row) => row.index === active);
  const emptyId = `${id}-empty`;
  return (
    <div
      {...rest}
      ref={scrollRef}
      id={id}
      role="listbox"
      aria-label={label}
      aria-multiselectable={multiselectable || undefined}
      aria-activedescendant={activeShown ? optionId(id, active) : undefined}
      // The empty note cannot be a child a listbox owns (only options can); it describes the listbox instead.
      aria-describedby={count === 0 && empty ? emptyId : undefined}
      tabIndex={0}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (!event.defaultPrevented) listbox.onKeyDown(event);
      }}
    >
      {count === 0 && empty && (
        <p className={styles.empty} id={emptyId} aria-hidden="true">
          {empty}
        </p>
      )}
      <div className={rowsClassName} style={{ height: virtualizer.getTotalSize() }}>
        {rows.map((row) => children(row))}
      </div>
    </div>
  );
}

export interface VirtualOptionProps extends Omit<
  HTMLAttributes<HTMLDivElement>,
  'id' | 'role' | 'aria-selected' | 'aria-setsize' | 'aria-posinset'
> {
  listbox: VirtualListboxState;
  row: VirtualItem;
  selected: boolean;
}

/** One row of a VirtualListbox, placed where the virtualizer puts it. */
export function VirtualOption({ listbox, row, selected, style, children, ...rest }: VirtualOptionProps) {
  return (
    <div
      {...rest}
      id={optionId(listbox.id, row.index)}
      role="option"
      aria-selected={selected}
      aria-setsize={listbox.count}
      aria-posinset={row.index + 1}
      data-index={row.index}
      data-active={row.index === listbox.active || undefined}
      style={{ ...style, transform: `translateY(${row.start}px)`, height: listbox.rowHeight }}
    >
      {children}
    </div>
  );
}
