/**
 * The log's own settings: capture on or off, the retention cap and the byte budget (the oldest
 * entries go beyond either: docs/contract/console.md §9), and "Clear log" (pressed twice: the log
 * can hold 100,000 entries). A cap the engine refuses says why and keeps the old one.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  TRAFFIC_RETENTION_BYTES_MAX,
  TRAFFIC_RETENTION_BYTES_MIN,
  type TrafficSettings,
} from '@engine-api/traffic-types';
import { useApi } from '../../api/context';
import { IGNORE_HELD_KEY, useConfirmStep } from '../../components/useConfirmStep';
import { trafficKeys, useTrafficSettings } from '../../queries/traffic';
import styles from './TrafficSettingsBar.module.css';

const MIN_RETENTION = 100;
const MAX_RETENTION = 10_000_000;
/** The byte budget is typed in MB (MiB, as the engine counts them). */
const MB = 1024 * 1024;
const MIN_BUDGET_MB = TRAFFIC_RETENTION_BYTES_MIN / MB;
const MAX_BUDGET_MB = TRAFFIC_RETENTION_BYTES_MAX / MB;

export function TrafficSettingsBar() {
  const api = useApi();
  const confirmClear = useConfirmStep();
  const queryClient = useQueryClient();
  const { data: settings } = useTrafficSettings();
  const [retention, setRetention] = useState<string | null>(null);
  const [budget, setBudget] = useState<string | null>(null);
  const configure = useMutation({
    mutationFn: (change: Partial<TrafficSettings>) => api.call('traffic.configure', change),
    onSuccess: (next, change) => {
      queryClient.setQueryData(trafficKeys.settings, next);
      // Only the field that was applied forgets its draft, and only if nothing else was typed there
      // while the engine answered: a value typed meanwhile is the user's and stays (with its check).
      if (change.retention !== undefined)
        setRetention((typed) => (typed !== null && Number(typed) === change.retention ? null : typed));
      if (change.retentionBytes !== undefined)
        setBudget((typed) => (typed !== null && Number(typed) * MB === change.retentionBytes ? null : typed));
    },
  });
  const clear = useMutation({
    mutationFn: () => api.call('traffic.clear', {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trafficKeys.all }),
  });

  const typed = retention === null ? null : Number(retention);
  const retentionOk = typed === null || retentionFits(typed);
  // Enter and blur apply what the field holds, read from it: a value typed and entered at once
  // could reach the handler before the render that knew it (a flaky end-to-end run).
  const applyRetention = (value: string) => {
    const entered = Number(value);
    if (value !== '' && retentionFits(entered) && entered !== settings?.retention)
      configure.mutate({ retention: entered });
    else if (entered === settings?.retention) setRetention(null);
  };
  const budgetMb = settings ? Math.round(settings.retentionBytes / MB) : null;
  const typedMb = budget === null ? null : Number(budget);
  const budgetOk = typedMb === null || budgetFits(typedMb);
  const applyBudget = (value: string) => {
    const entered = Number(value);
    if (value !== '' && budgetFits(entered) && entered !== budgetMb) configure.mutate({ retentionBytes: entered * MB });
    else if (entered === budgetMb) setBudget(null);
  };

  return (
    <div className={styles.settings} role="group" aria-label="Log settings">
      <label className={styles.toggle} data-on={settings?.capture ?? undefined}>
        <input
          type="checkbox"
          role="switch"
          checked={settings?.capture ?? true}
          disabled={!settings}
          onChange={(event) => configure.mutate({ capture: event.target.checked })}
        />
        Capture
      </label>
      <label>
        Keep
        <input
          type="number"
          aria-label="Retention cap"
          min={MIN_RETENTION}
          max={MAX_RETENTION}
          step={1000}
          value={retention ?? settings?.retention ?? ''}
          aria-invalid={!retentionOk || undefined}
          title={`Entries kept (${MIN_RETENTION.toLocaleString('en-US')}–${MAX_RETENTION.toLocaleString('en-US')}); the oldest go first`}
          onChange={(event) => setRetention(event.target.value)}
          onBlur={(event) => applyRetention(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') applyRetention(event.currentTarget.value);
            if (event.key === 'Escape') setRetention(null);
          }}
        />
        entries
      </label>
      <label>
        at most
        <input
          type="number"
          aria-label="Byte budget"
          min={MIN_BUDGET_MB}
          max={MAX_BUDGET_MB}
          step={16}
          value={budget ?? budgetMb ?? ''}
          aria-invalid={!budgetOk || undefined}
          title={`What the stored log may take (${MIN_BUDGET_MB} MB or more); beyond it the oldest entries go first, whatever the entry cap`}
          onChange={(event) => setBudget(event.target.value)}
          onBlur={(event) => applyBudget(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') applyBudget(event.currentTarget.value);
            if (event.key === 'Escape') setBudget(null);
          }}
        />
        MB
      </label>
      <button
        type="button"
        className="danger"
        disabled={clear.isPending}
        title="Deletes every entry of the log (press twice)"
        {...IGNORE_HELD_KEY}
        onClick={() => confirmClear.press(() => clear.mutate())}
      >
        {confirmClear.armed ? 'Confirm: delete every entry' : 'Clear log'}
      </button>
      {!retentionOk && (
        <span className="error" role="alert">
          keep {MIN_RETENTION.toLocaleString('en-US')} to {MAX_RETENTION.toLocaleString('en-US')} entries
        </span>
      )}
      {!budgetOk && (
        <span className="error" role="alert">
          keep {MIN_BUDGET_MB} to {MAX_BUDGET_MB.toLocaleString('en-US')} MB
        </span>
      )}
      {(configure.error ?? clear.error) && (
        <span className="error" role="alert">
          {(configure.error ?? clear.error)!.message}
        </span>
      )}
    </div>
  );
}

const retentionFits = (value: number) => Number.isInteger(value) && value >= MIN_RETENTION && value <= MAX_RETENTION;
const budgetFits = (value: number) => Number.isInteger(value) && value >= MIN_BUDGET_MB && value <= MAX_BUDGET_MB;
