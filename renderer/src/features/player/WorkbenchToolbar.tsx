/**
 * The workbench's compact toolbars (faults, timeline): a wrapping row of small labelled fields and
 * buttons, one look for both, as the command bar's fields.
 */
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import styles from './WorkbenchToolbar.module.css';

export function WorkbenchToolbar(props: Omit<ComponentPropsWithoutRef<'div'>, 'className'>) {
  return <div {...props} className={styles.toolbar} />;
}

export function WorkbenchToolbarForm(props: Omit<ComponentPropsWithoutRef<'form'>, 'className'>) {
  return <form {...props} className={styles.toolbar} />;
}

/** A small field: its label above its control. */
export function WorkbenchField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className={styles.field}>
      <span>{label}</span>
      {children}
    </label>
  );
}
