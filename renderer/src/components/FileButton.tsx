/** A button that opens a file chooser: a label around a visually hidden file input. */
import type { ChangeEvent, Ref } from 'react';
import styles from './FileButton.module.css';

export interface FileButtonProps {
  label: string;
  busyLabel: string;
  busy: boolean;
  title?: string;
  /** The input, for whoever puts focus back on the chooser. */
  inputRef?: Ref<HTMLInputElement>;
  onChange(event: ChangeEvent<HTMLInputElement>): void;
}

export function FileButton({ label, busyLabel, busy, title, inputRef, onChange }: FileButtonProps) {
  return (
    <label className={styles.fileButton} title={title} data-busy={busy || undefined}>
      {busy ? busyLabel : label}
      <input
        ref={inputRef}
        type="file"
        accept="application/json,.json"
        className="sr-only"
        disabled={busy}
        onChange={(event) => void onChange(event)}
      />
    </label>
  );
}
