/**
 * The console's one table: header cells muted, rows ruled, cells that wrap rather than clip. With
 * `scroll` it scrolls inside a region of that name, its header row kept in view, and the region
 * takes the keyboard (Tab to it, then the arrow keys scroll), so a long log never moves the page.
 * `dense` is the compact variant for logs (a player's transitions, its requests, its reports).
 */
import type { CSSProperties, TableHTMLAttributes } from 'react';
import styles from './DataTable.module.css';

export interface DataTableProps extends TableHTMLAttributes<HTMLTableElement> {
  dense?: boolean;
  /** The accessible name of the region the table scrolls in; without it the table does not scroll. */
  scroll?: string;
  /** How tall the scroll region grows before it scrolls (a CSS length). */
  maxHeight?: string;
}

export function DataTable({ dense = false, scroll, maxHeight = '280px', className, ...rest }: DataTableProps) {
  const table = (
    <table {...rest} className={[styles.table, dense ? styles.dense : '', className ?? ''].filter(Boolean).join(' ')} />
  );
  if (scroll === undefined) return table;
  return (
    <div
      className={styles.scroll}
      role="region"
      aria-label={scroll}
      tabIndex={0}
      style={{ '--table-max-height': maxHeight } as CSSProperties}
    >
      {table}
    </div>
  );
}
