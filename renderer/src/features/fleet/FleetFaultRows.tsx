/**
 * The fleet's timed faults: which preset, when in the fleet's listening it switches on, and for
 * how long. A one-minute outage is one row (and one click). Each row's problem is said beside
 * its field, with what was typed kept.
 */
import type { FaultPreset } from '@engine-api/commands/faults';
import { OUTAGE_FAULT, type FleetFaultDraft, type FleetFaultErrors } from './form';
import styles from './FleetFaultRows.module.css';

interface Props {
  drafts: FleetFaultDraft[];
  errors: FleetFaultErrors;
  presets: readonly FaultPreset[] | undefined;
  onChange(drafts: FleetFaultDraft[]): void;
  /** A row's field was left, for `next` (what takes the focus): the form checks it then. */
  onLeave?(row: number, field: keyof FleetFaultDraft, next: EventTarget | null): void;
}

export function FleetFaultRows({ drafts, errors, presets, onChange, onLeave }: Props) {
  const edit = (row: number, change: Partial<FleetFaultDraft>) =>
    onChange(drafts.map((draft, i) => (i === row ? { ...draft, ...change } : draft)));
  const add = (draft: FleetFaultDraft) => onChange([...drafts, draft]);
  const remove = (row: number) => onChange(drafts.filter((_, i) => i !== row));
  const first = presets?.[0]?.id ?? '';

  return (
    <fieldset className={styles.faults}>
      <legend>Faults</legend>
      <p className={styles.hint}>
        Switched on in the players’ client at a time of the fleet’s listening, so they fail whatever server is played.
      </p>
      {drafts.length > 0 && (
        <ol className={styles.rows}>
          {drafts.map((draft, row) => {
            const rowErrors = errors[row] ?? {};
            const id = (field: string) => `fleet-fault-${row}-${field}`;
            const problem = rowErrors.preset ?? rowErrors.start ?? rowErrors.duration;
            // Named with the row's label, so each reads "Fault 2 From (s)" and not only its column.
            const numberField = (field: 'start' | 'duration', label: string, placeholder?: string) => (
              <div className={styles.number}>
                <label id={id(`${field}-label`)} htmlFor={id(field)}>
                  {label}
                </label>
                <input
                  id={id(field)}
                  aria-labelledby={`${id('label')} ${id(`${field}-label`)}`}
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder={placeholder}
                  value={draft[field]}
                  aria-invalid={rowErrors[field] ? true : undefined}
                  aria-describedby={problem ? `fleet-fault-${row}-error` : undefined}
                  onChange={(event) => edit(row, { [field]: event.target.value })}
                  onBlur={(event) => onLeave?.(row, field, event.relatedTarget)}
                />
              </div>
            );
            return (
              <li key={row} className={styles.row}>
                <div className={styles.preset}>
                  <label id={id('label')} htmlFor={id('preset')}>
                    Fault {row + 1}
                  </label>
                  <select
                    id={id('preset')}
                    value={draft.preset}
                    aria-invalid={rowErrors.preset ? true : undefined}
                    aria-describedby={problem ? `fleet-fault-${row}-error` : undefined}
                    onChange={(event) => edit(row, { preset: event.target.value })}
                    onBlur={(event) => onLeave?.(row, 'preset', event.relatedTarget)}
                  >
                    {!presets?.some((p) => p.id === draft.preset) && <option value={draft.preset}>Choose…</option>}
                    {presets?.map((preset) => (
                      <option key={preset.id} value={preset.id}>
                        {preset.label}
                      </option>
                    ))}
                  </select>
                </div>
                {numberField('start', 'From (s)')}
                {numberField('duration', 'For (s)', 'to the end')}
                <button
                  type="button"
                  className={styles.remove}
                  aria-label={`Remove fault ${row + 1}`}
                  onClick={() => remove(row)}
                >
                  Remove
                </button>
                {problem && (
                  <p id={`fleet-fault-${row}-error`} className={styles.error}>
                    {problem}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <div className={styles.actions}>
        <button type="button" onClick={() => add(OUTAGE_FAULT)}>
          Add a one-minute outage
        </button>
        <button type="button" onClick={() => add({ preset: first, start: '0', duration: '' })} disabled={!first}>
          Add a fault
        </button>
      </div>
    </fieldset>
  );
}
