/**
 * The form that starts a fleet: how many players, for how long, how fast, how they listen, against
 * which server, judged by which thresholds. A field the engine would refuse is said so beside it,
 * with what was typed kept and the first such field focused.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useFaultPresets } from '../../queries/faults';
import { usePaletteActions } from '../../stores/palette-actions';
import { FleetFaultRows } from './FleetFaultRows';
import {
  parseFleetForm,
  type FleetFaultDraft,
  type FleetFaultErrors,
  type FleetFieldErrors,
  type FleetFields,
} from './form';
import { useStartFleet } from './queries';
import { readFleetForm, writeFleetForm } from './stored-form';
import styles from './FleetForm.module.css';

const ORDER: (keyof FleetFields)[] = [
  'players',
  'duration',
  'ramp',
  'speed',
  'skipRate',
  'pauseRate',
  'seekRate',
  'seed',
  'workers',
  'baseUrl',
  'authorization',
  'thresholds',
];
const FAULT_FIELDS: (keyof FleetFaultDraft)[] = ['preset', 'start', 'duration'];
/** The field just left: one of the form's, or a field of a fault row. */
type Left = { key: keyof FleetFields } | { row: number; field: keyof FleetFaultDraft };

export function FleetForm({ running, onStarted }: { running: boolean; onStarted(id: string): void }) {
  const start = useStartFleet();
  const presets = useFaultPresets().data;
  const [stored] = useState(readFleetForm);
  const [fields, setFields] = useState<FleetFields>(stored.fields);
  const [faults, setFaults] = useState<FleetFaultDraft[]>(stored.faults);
  const [errors, setErrors] = useState<FleetFieldErrors>({});
  const [faultErrors, setFaultErrors] = useState<FleetFaultErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  // Remembered as typed, so a restart finds the fleet that was being set up.
  useEffect(() => writeFleetForm({ fields, faults }), [fields, faults]);
  // As the Start button: while a fleet plays the palette says why it cannot.
  usePaletteActions({ 'fleet.start': running ? undefined : () => formRef.current?.requestSubmit() });

  const edit = (key: keyof FleetFields, value: string) => {
    setFields((now) => ({ ...now, [key]: value }));
    setErrors((shown) => ({ ...shown, [key]: undefined }));
    start.reset();
  };

  /**
   * A field is checked as it is left, not first on Start (audit-ui W16): its problem is said at
   * once, and the problems already said are read again, the fault rows' too (a Base URL given
   * clears what Authorization said of its absence; a longer Duration, a row's "before the fleet
   * ends"). A field not yet left says nothing, so nobody is told off mid-form.
   */
  const leave = (left: Left) => {
    const parsed = parseFleetForm(fields, faults, presets ?? []);
    const now = parsed.ok ? { errors: {} as FleetFieldErrors, faultErrors: {} as FleetFaultErrors } : parsed;
    const isLeft = (k: keyof FleetFields) => 'key' in left && left.key === k;
    setErrors((shown) =>
      Object.fromEntries(ORDER.flatMap((k) => ((isLeft(k) || shown[k]) && now.errors[k] ? [[k, now.errors[k]]] : []))),
    );
    // Before the presets are known every row would read "Choose a fault.": the rows wait for them.
    if (!presets) return;
    const isLeftFault = (r: number, f: keyof FleetFaultDraft) => 'row' in left && left.row === r && left.field === f;
    setFaultErrors((shown) => {
      const next: FleetFaultErrors = {};
      faults.forEach((_, r) => {
        const kept = FAULT_FIELDS.filter((f) => (isLeftFault(r, f) || shown[r]?.[f]) && now.faultErrors[r]?.[f]);
        if (kept.length > 0) next[r] = Object.fromEntries(kept.map((f) => [f, now.faultErrors[r]![f]]));
      });
      return next;
    });
  };

  /**
   * A field left by a press of the pointer is checked once that press ended in its click, not
   * before: a problem said at once (a line under the field) moved what was pressed from under the
   * pointer between press and release, and the click was lost (Start, in CI). A field left for
   * Start itself is not checked at all: Start checks them all.
   */
  const latestLeave = useRef(leave);
  const faultCount = useRef(faults.length);
  // Kept current for a check that runs after a click, when this render's values may be old.
  useEffect(() => {
    latestLeave.current = leave;
    faultCount.current = faults.length;
  });
  const pressing = useRef(false);
  const leaving = (next: EventTarget | null, left: Left) => {
    if (next instanceof HTMLButtonElement && next.type === 'submit' && next.form === formRef.current) return;
    if (!pressing.current) return leave(left);
    const rows = faults.length;
    window.addEventListener(
      'pointerup',
      // After the click that follows the release: a task of its own.
      () =>
        setTimeout(() => {
          // A row added or removed by that click: the row left may be another now.
          if ('row' in left && faultCount.current !== rows) return;
          latestLeave.current(left);
        }),
      { once: true },
    );
  };

  const editFaults = (drafts: FleetFaultDraft[]) => {
    setFaults(drafts);
    // The row edited says nothing until it is left; the others keep what they said, unless a row
    // was added or removed and what was said no longer lines up with the rows.
    setFaultErrors((shown) =>
      drafts.length !== faults.length
        ? {}
        : Object.fromEntries(Object.entries(shown).filter(([row]) => drafts[Number(row)] === faults[Number(row)])),
    );
    start.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseFleetForm(fields, faults, presets ?? []);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      setFaultErrors(parsed.faultErrors);
      const first = ORDER.find((key) => parsed.errors[key]);
      const firstRow = Object.keys(parsed.faultErrors).map(Number)[0];
      const rowErrors = firstRow === undefined ? undefined : parsed.faultErrors[firstRow];
      const firstFaultField = FAULT_FIELDS.find((key) => rowErrors?.[key]);
      const target = first ? `#fleet-${first}` : firstFaultField ? `#fleet-fault-${firstRow}-${firstFaultField}` : null;
      if (target) formRef.current?.querySelector<HTMLElement>(target)?.focus();
      return;
    }
    setErrors({});
    setFaultErrors({});
    start.mutate(parsed.input, { onSuccess: ({ id }) => onStarted(id) });
  };

  const field = (
    key: keyof FleetFields,
    label: string,
    hint: ReactNode,
    props: { wide?: boolean; mono?: boolean } = {},
  ) => {
    const error = errors[key];
    const described = error ? `fleet-${key}-error` : hint ? `fleet-${key}-hint` : undefined;
    const common = {
      id: `fleet-${key}`,
      value: fields[key],
      'aria-invalid': error ? true : undefined,
      'aria-describedby': described,
      spellCheck: false,
      className: props.mono ? styles.mono : undefined,
    };
    return (
      <div className={`${styles.field} ${props.wide ? styles.wide : ''}`}>
        <label htmlFor={`fleet-${key}`}>{label}</label>
        {key === 'thresholds' ? (
          <textarea
            {...common}
            rows={3}
            onChange={(event) => edit(key, event.target.value)}
            onBlur={(event) => leaving(event.relatedTarget, { key })}
          />
        ) : (
          <input
            {...common}
            type={key === 'authorization' ? 'password' : 'text'}
            inputMode={props.wide ? undefined : 'decimal'}
            autoComplete="off"
            onChange={(event) => edit(key, event.target.value)}
            onBlur={(event) => leaving(event.relatedTarget, { key })}
          />
        )}
        {error ? (
          <p id={`fleet-${key}-error`} className={styles.fieldError}>
            {error}
          </p>
        ) : (
          hint && (
            <p id={`fleet-${key}-hint`} className={styles.hint}>
              {hint}
            </p>
          )
        )}
      </div>
    );
  };

  return (
    <form
      ref={formRef}
      className={`panel ${styles.form}`}
      onPointerDownCapture={() => {
        pressing.current = true;
        window.addEventListener('pointerup', () => (pressing.current = false), { once: true, capture: true });
      }}
      onSubmit={submit}
      noValidate
      aria-labelledby="fleet-form-title"
    >
      <div className="panel-head">
        <h2 id="fleet-form-title">Start a fleet</h2>
      </div>
      <div className={styles.grid}>
        {field('players', 'Players', 'Each with its own session and queue.')}
        {field('duration', 'Duration (s)', 'Seconds of listening.')}
        {field('ramp', 'Ramp (s)', 'Players join evenly over it.')}
        {field('speed', 'Speed', '1 is real time; 10 plays 10 s a second.')}
        {field('skipRate', 'Skip rate', 'Per track, 0 to 1.')}
        {field('pauseRate', 'Pause rate', 'Per track, 0 to 1.')}
        {field('seekRate', 'Seek rate', 'Per track, 0 to 1.')}
        {field('seed', 'Seed', 'The same seed, the same listeners.')}
        {field('workers', 'Workers', 'Threads; empty: one per core.')}
        {field(
          'baseUrl',
          'Base URL (optional)',
          <>
            Empty: the console’s reference server, a queue per player. <code>{'{player}'}</code> is the player’s number.
          </>,
          { wide: true, mono: true },
        )}
        {field('authorization', 'Authorization (optional)', 'Sent with every request to the Base URL.', {
          wide: true,
          mono: true,
        })}
        {field('thresholds', 'Thresholds', 'One a line, as k6 writes them: p99<250ms, errors<1%, violations==0.', {
          wide: true,
          mono: true,
        })}
      </div>
      <FleetFaultRows
        drafts={faults}
        errors={faultErrors}
        presets={presets}
        onChange={editFaults}
        onLeave={(row, field, next) => leaving(next, { row, field })}
      />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={start.isPending || running}>
          {start.isPending ? 'Starting…' : 'Start fleet'}
        </button>
        {running && <span className="muted">A fleet is playing.</span>}
      </div>
      {start.error && (
        <p role="alert" className={styles.fieldError}>
          The fleet did not start: {start.error.message}
        </p>
      )}
    </form>
  );
}
