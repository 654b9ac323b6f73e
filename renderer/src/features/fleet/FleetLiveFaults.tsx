/**
 * Faults injected while a fleet plays: a preset aimed at the players' client (so it fails
 * whatever server the fleet plays), and the player-client rules in force with their hits and a
 * Remove each. The charts beside it show the effect: errors, then the retries' herd, then the
 * players back to PLAYING once the rule is removed.
 */
import { useState } from 'react';
import type { FleetReport } from '@engine-api/fleet-types';
import { useApplyPreset, useFaultPresets, useFaultRules, useRemoveFault } from '../../queries/faults';
import { timedFaultStates } from './timed-faults';
import styles from './FleetLiveFaults.module.css';

export function FleetLiveFaults({ report }: { report: FleetReport }) {
  const timed = timedFaultStates(report);
  const presets = useFaultPresets().data ?? [];
  const rules = (useFaultRules().data ?? []).filter((rule) => rule.target === 'player' && !rule.spent);
  const apply = useApplyPreset();
  const remove = useRemoveFault();
  const [chosen, setChosen] = useState('503-storm');
  const preset = presets.find((p) => p.id === chosen) ?? presets[0];

  return (
    <div className={styles.live} aria-labelledby="fleet-live-faults-title">
      <h3 id="fleet-live-faults-title">Inject a fault now</h3>
      <div className={styles.inject}>
        <label htmlFor="fleet-live-fault" className="sr-only">
          Fault to inject
        </label>
        <select id="fleet-live-fault" value={preset?.id ?? ''} onChange={(event) => setChosen(event.target.value)}>
          {presets.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={!preset || apply.isPending}
          onClick={() => preset && apply.mutate({ id: preset.id, target: 'player' })}
        >
          {apply.isPending ? 'Injecting…' : 'Inject'}
        </button>
      </div>
      {apply.error && (
        <p role="alert" className={styles.error}>
          Not injected: {apply.error.message}
        </p>
      )}
      {timed.length > 0 && (
        <ul className={styles.rules} aria-label="The fleet’s own timed faults">
          {timed.map((fault) => (
            <li key={fault.key} className={styles.rule} data-on={fault.on || undefined}>
              <span className={styles.label} title={fault.label}>
                {fault.label}
              </span>
              <span className={styles.hits}>{fault.state}</span>
            </li>
          ))}
        </ul>
      )}
      {timed.some((fault) => fault.on) && (
        <p className={styles.none}>
          The first fault in force takes a request: one injected here waits while the fleet’s own is on.
        </p>
      )}
      {rules.length === 0 ? (
        <p className={styles.none}>No fault in the players’ client.</p>
      ) : (
        <ul className={styles.rules} aria-label="Faults in the players’ client">
          {rules.map((rule) => (
            <li key={rule.id} className={styles.rule}>
              <span className={styles.label} title={rule.label ?? rule.id}>
                {rule.label ?? rule.id}
              </span>
              <span className={styles.hits}>{rule.hits.toLocaleString('en-US')} hits</span>
              <button
                type="button"
                aria-label={`Remove ${rule.label ?? rule.id}`}
                disabled={remove.isPending}
                onClick={() => remove.mutate(rule.id)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
