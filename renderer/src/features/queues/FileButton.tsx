/** A button that opens a file chooser: a label around a visually hidden file input, no refs. */
import type { ChangeEvent } from 'react';

export interface FileButtonProps {
  label: string;
  busyLabel: string;
  busy: boolean;
  title?: string;
  onChange(event: ChangeEvent<HTMLInputElement>): void;
}

export function FileButton({ label, busyLabel, busy, title, onChange }: FileButtonProps) {
  return (
    <label className="file-button" title={title} data-busy={busy || undefined}>
      {busy ? busyLabel : label}
      <input type="file" accept="application/json,.json" className="sr-only" disabled={busy} onChange={(event) => void onChange(event)} />
    </label>
  );
}
