/**
 * The engine clock in the status bar (docs/contract/console.md §6): engine time, speed (0 stops it) and jumps
 * forward. A jump runs every timer that falls due on the way, so it can take a moment: the
 * buttons say so while it runs.
 */
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../api/context';
import { onRovingKeyDown, rovingTabIndex } from '../components/roving';
import { formatEngineTime } from '../format/engine-time';
import { useClockStore, useEngineNow } from '../stores/clock';
import { useConnectionStore } from '../stores/connection';
import styles from './ClockControl.module.css';

const SPEEDS = [
  { speed: 0, label: 'Stop', title: 'Stop the engine clock (speed 0)' },
  { speed: 1, label: '1×', title: 'Real time' },
  { speed: 10, label: '10×', title: 'Ten times real time' },
  { speed: 60, label: '60×', title: 'A minute a second' },
  { speed: 600, label: '600×', title: 'Ten minutes a second' },
] as const;

/** Named by what they show (+1m), inside the "Advance the clock" group; the title says the rest. */
const STEPS = [
  { ms: 60_000, label: '+1m', name: '1 min' },
  { ms: 600_000, label: '+10m', name: '10 min' },
  { ms: 3_600_000, label: '+1h', name: '1 h' },
  { ms: 86_400_000, label: '+24h', name: '24 h' },
] as const;

export function ClockControl() {
  const api = useApi();
  const now = useEngineNow();
  // Lost, the engine takes no clock command: the controls say so rather than look live (audit).
  const lost = useConnectionStore((s) => s.lostSince !== null);
  const speed = useClockStore((s) => (lost ? undefined : s.clock?.speed));
  const setClock = useClockStore((s) => s.setClock);
  const change = useMutation({
    mutationFn: (input: { speed?: number; advanceMs?: number }) => api.call('clock.set', input),
    onSuccess: setClock,
  });

  return (
    <div className={styles.clock} role="group" aria-label="Engine clock">
      <span
        className={styles.time}
        role="timer"
        aria-label="Engine time"
        data-now={now ?? ''}
        data-speed={speed ?? ''}
        data-lost={lost || undefined}
        title={
          lost
            ? 'Engine time, as last seen: the console lost its engine'
            : 'Engine time: every timer and lifetime in the console runs on it'
        }
      >
        {now === null ? '—' : formatEngineTime(now)}
      </span>
      <div className="segmented" role="radiogroup" aria-label="Clock speed" onKeyDown={onRovingKeyDown}>
        {SPEEDS.map((s, index) => (
          <button
            key={s.speed}
            type="button"
            role="radio"
            aria-checked={speed === s.speed}
            tabIndex={rovingTabIndex(
              speed === s.speed,
              index === 0,
              SPEEDS.some((other) => other.speed === speed),
            )}
            title={s.title}
            disabled={speed === undefined}
            onClick={() => change.mutate({ speed: s.speed })}
          >
            {s.label}
          </button>
        ))}
      </div>
      <div className="segmented" aria-label="Advance the clock" role="group">
        {STEPS.map((step) => (
          <button
            key={step.ms}
            type="button"
            disabled={change.isPending || speed === undefined}
            title={`Advance the engine clock by ${step.name}, running every timer due on the way`}
            onClick={() => change.mutate({ advanceMs: step.ms })}
          >
            {step.label}
          </button>
        ))}
      </div>
      <span className={styles.status} role="status" aria-live="polite">
        {change.isPending ? 'advancing…' : change.isError ? `clock: ${change.error.message}` : ''}
      </span>
    </div>
  );
}
