/**
 * The engine's warnings (`state.get`'s `warnings`), in the status bar: nothing while there are
 * none; otherwise a warning-coloured count that opens the list (each with how often and when it
 * last happened). What only the terminal's log said before: a traffic log put aside, a player
 * whose state could not be saved, traffic that was not stored.
 */
import type { KeyboardEvent } from 'react';
import type { EngineWarning } from '@engine-api/types';
import styles from './EngineWarnings.module.css';

const SOURCES: Record<EngineWarning['source'], string> = {
  'traffic-log': 'Traffic log',
  'player-saved': 'Player state',
};

const wallTime = (ms: number) => new Date(ms).toLocaleTimeString(undefined, { hour12: false });

export function EngineWarnings({ warnings }: { warnings: readonly EngineWarning[] }) {
  if (warnings.length === 0) return null;
  const label = `${warnings.length} engine warning${warnings.length === 1 ? '' : 's'}`;
  return (
    <details className={styles.warnings} onKeyDown={closeOnEscape}>
      <summary aria-label={label} title={label}>
        <span aria-hidden="true">⚠ {warnings.length}</span>
      </summary>
      <ul className={styles.list} aria-label="Engine warnings">
        {[...warnings].reverse().map((warning) => (
          <li key={`${warning.source}\n${warning.message}`} className={styles.warning}>
            <span className={styles.source}>{SOURCES[warning.source]}</span>
            <span>{warning.message}</span>
            <span className={styles.when}>
              {warning.count > 1
                ? `${warning.count.toLocaleString('en-US')} times, last ${wallTime(warning.lastAt)}`
                : wallTime(warning.lastAt)}
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The status bar's popovers (these warnings, the folded service URLs): Escape closes one and gives the focus back to its summary. */
export function closeOnEscape(event: KeyboardEvent<HTMLDetailsElement>): void {
  const details = event.currentTarget;
  if (event.key !== 'Escape' || !details.open) return;
  event.preventDefault();
  event.stopPropagation();
  details.open = false;
  details.querySelector('summary')?.focus();
}
