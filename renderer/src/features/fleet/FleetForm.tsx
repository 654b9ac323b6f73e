/**
 * The form that starts a fleet: how many players, for how long, how fast, how they listen, against
 * which server, judged by which thresholds. A field the engine would refuse is said so beside it,
 * with what was typed kept and the first such field focused.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { usePaletteActions } from '../../stores/palette-actions';
import { DEFAULT_FLEET_FIELDS, parseFleetForm, type FleetFieldErrors, type FleetFields } from './form';
import { useStartFleet } from './queries';
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
  'baseUrl',
  'authorization',
  'thresholds',
];

export function FleetForm({ running, onStarted }: { running: boolean; onStarted(id: string): void }) {
  const start = useStartFleet();
  const [fields, setFields] = useState<FleetFields>(DEFAULT_FLEET_FIELDS);
  const [errors, setErrors] = useState<FleetFieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  // As the Start button: while a fleet plays the palette says why it cannot.
  usePaletteActions({ 'fleet.start': running ? undefined : () => formRef.current?.requestSubmit() });

  const edit = (key: keyof FleetFields, value: string) => {
    setFields((now) => ({ ...now, [key]: value }));
    setErrors((shown) => ({ ...shown, [key]: undefined }));
    start.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseFleetForm(fields);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      const first = ORDER.find((key) => parsed.errors[key]);
      if (first) formRef.current?.querySelector<HTMLElement>(`#fleet-${first}`)?.focus();
      return;
    }
    setErrors({});
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
          <textarea {...common} rows={3} onChange={(event) => edit(key, event.target.value)} />
        ) : (
          <input
            {...common}
            type={key === 'authorization' ? 'password' : 'text'}
            inputMode={props.wide ? undefined : 'decimal'}
            autoComplete="off"
            onChange={(event) => edit(key, event.target.value)}
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
