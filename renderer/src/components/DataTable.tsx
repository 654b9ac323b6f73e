/**
 * The console's table: header cells muted, rows ruled, numbers and codes left as they are.
 * `dense` is the compact variant for long logs (a player's transitions). The base rules sit in
 * styles.css beside the design tokens; the variants in DataTable.css.
 */
import type { TableHTMLAttributes } from 'react';
import './DataTable.css';

export interface DataTableProps extends TableHTMLAttributes<HTMLTableElement> {
  dense?: boolean;
}

export function DataTable({ dense = false, className, ...rest }: DataTableProps) {
  return <table {...rest} className={['table', dense ? 'dense' : '', className ?? ''].filter(Boolean).join(' ')} />;
}
