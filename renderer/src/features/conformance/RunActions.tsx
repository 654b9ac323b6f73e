/**
 * What can be done with a run: stop it while it goes on; once it has ended, save it as JSON, JUnit
 * XML or a self-contained HTML page, run it again against the same server (asking for the
 * Authorization again when the console no longer holds it: it restarted since), or delete it, in
 * two steps. A rerun waits for the run to end: two at once against one server doubled its load and
 * the list held two runs of one server going on (ui-x3 U6).
 */
import { useRef, useState, type FormEvent } from 'react';
import {
  CONFORMANCE_REPORT_FORMATS,
  type ConformanceReportFormat,
  type ConformanceRunSummary,
} from '@engine-api/conformance-types';
import { IGNORE_HELD_KEY, useConfirmStep } from '../../components/useConfirmStep';
import { useDeleteRun, useExportRun, useRerun, useStopRun } from '../../queries/conformance';
import { downloadReport } from './download';
import { SecretInput } from './SecretInput';
import { checkAuthorization } from './target';
import { Hint } from './Hint';
import styles from './RunActions.module.css';

const FORMAT_LABEL: Record<ConformanceReportFormat, { text: string; title: string }> = {
  json: { text: 'JSON', title: 'The run as the admin API answers it' },
  junit: { text: 'JUnit XML', title: 'One test case per case, for a CI test report' },
  html: { text: 'HTML', title: 'One self-contained page, the cases grouped by rule' },
};

export interface RunActionsProps {
  run: ConformanceRunSummary;
  onStarted(runId: string): void;
  onDeleted(): void;
}

export function RunActions({ run, onStarted, onDeleted }: RunActionsProps) {
  const exporter = useExportRun();
  const rerun = useRerun();
  const remove = useDeleteRun();
  const stop = useStopRun();
  const confirm = useConfirmStep();
  const [asking, setAsking] = useState(false);
  const rerunButton = useRef<HTMLButtonElement>(null);
  const running = run.status === 'running';

  const startRerun = (authorization?: string) =>
    rerun.mutate(authorization === undefined ? { id: run.id } : { id: run.id, authorization }, {
      onSuccess: ({ id }) => {
        setAsking(false);
        onStarted(id);
      },
    });

  const error = exporter.error ?? (asking ? null : rerun.error) ?? remove.error ?? stop.error;
  return (
    <>
      <div className={styles.actions}>
        {running && (
          <button
            type="button"
            className="danger"
            disabled={stop.isPending}
            title="Stop the run: what it settled stands, the rest does not run"
            onClick={() => stop.mutate(run.id)}
          >
            {stop.isPending ? 'Stopping…' : 'Stop'}
          </button>
        )}
        <div className={styles.export} role="group" aria-label="Export">
          <Hint className={styles.exportLabel}>Export</Hint>
          {CONFORMANCE_REPORT_FORMATS.map((format) => (
            <button
              key={format}
              type="button"
              disabled={running || exporter.isPending}
              title={running ? 'Once the run has ended' : FORMAT_LABEL[format].title}
              onClick={() => exporter.mutate({ id: run.id, format }, { onSuccess: downloadReport })}
            >
              {FORMAT_LABEL[format].text}
            </button>
          ))}
        </div>
        <button
          type="button"
          ref={rerunButton}
          disabled={running || rerun.isPending || asking}
          aria-expanded={run.rerunNeedsAuthorization ? asking : undefined}
          title={running ? 'Once the run has ended' : 'Run the suite again against the same server, as a new run'}
          onClick={() => (run.rerunNeedsAuthorization ? setAsking(true) : startRerun())}
        >
          {rerun.isPending && !asking ? 'Starting…' : 'Rerun'}
        </button>
        <button
          type="button"
          className={confirm.armed ? 'danger' : undefined}
          disabled={running || remove.isPending}
          title={running ? 'Once the run has ended' : 'Delete this run (press twice)'}
          {...IGNORE_HELD_KEY}
          onClick={() => confirm.press(() => remove.mutate(run.id, { onSuccess: onDeleted }))}
        >
          {confirm.armed ? 'Confirm delete' : 'Delete'}
        </button>
      </div>
      {error && (
        <p role="alert" className={styles.fieldError}>
          {error.message}
        </p>
      )}
      {asking && (
        <AuthorizationPrompt
          masked={run.authorization}
          pending={rerun.isPending}
          error={rerun.error?.message ?? null}
          onSubmit={startRerun}
          onCancel={() => {
            setAsking(false);
            rerun.reset();
            rerunButton.current?.focus();
          }}
        />
      )}
    </>
  );
}

/** The Authorization a rerun must be given again: the run sent one this console no longer holds. */
function AuthorizationPrompt({
  masked,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  masked: string | null;
  pending: boolean;
  error: string | null;
  onSubmit(authorization: string): void;
  onCancel(): void;
}) {
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkAuthorization(value);
    if (!checked.ok) return setInvalid(checked.message);
    if (checked.value === undefined) return setInvalid('Give the Authorization the run sent: the server expects it.');
    onSubmit(checked.value);
  };
  const message = invalid ?? error;
  return (
    <form
      className={styles.rerunAuth}
      onSubmit={submit}
      noValidate
      aria-label="Authorization for the rerun"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <p id="check-rerun-authorization-why">
        This run sent an Authorization
        {masked ? (
          <>
            {' '}
            (<code>{masked}</code>)
          </>
        ) : null}{' '}
        that the console no longer holds (it restarted since). Give it again to rerun.
      </p>
      <div className={styles.rerunAuthRow}>
        <label htmlFor="check-rerun-authorization">Authorization</label>
        <SecretInput
          className={styles.secret}
          id="check-rerun-authorization"
          label="Authorization"
          autoFocus
          value={value}
          invalid={message !== null}
          describedBy={
            message ? 'check-rerun-authorization-why check-rerun-authorization-error' : 'check-rerun-authorization-why'
          }
          onChange={(next) => {
            setValue(next);
            setInvalid(null);
          }}
        />
        <button type="submit" className="primary" disabled={pending}>
          {pending ? 'Starting…' : 'Rerun'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {message && (
        <p id="check-rerun-authorization-error" className={styles.fieldError}>
          {message}
        </p>
      )}
    </form>
  );
}
