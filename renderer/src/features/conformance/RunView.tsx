/**
 * One run: the server it checked, a summary line, its progress case by case while it runs, and
 * then its results, failures and warnings first; or, for a server that could not be reached, that one message. The end of
 * a run watched here is announced; the heading takes the focus when the run was just started.
 */
import { useEffect, useRef, useState } from 'react';
import type { ConformanceCaseInfo, ConformanceRun } from '@engine-api/conformance-types';
import { useConformanceCases, useConformanceRun } from '../../queries/conformance';
import { caseRows, currentCase } from './grouping';
import { RunActions } from './RunActions';
import { RunProgress } from './RunProgress';
import { RunResults } from './RunResults';
import { StatusPill } from './StatusPill';
import { conformanceRunWord } from '@engine-api/conformance-word';
import { summaryLine } from './summary';
import { Hint } from './Hint';
import { rerunDiff, rerunDiffText } from './rerun-diff';
import styles from './RunView.module.css';

export interface RunViewProps {
  runId: string;
  /** A run just started from here: its heading takes the focus, once (then `onHeadingFocused`). */
  focusHeading: boolean;
  onHeadingFocused(): void;
  onStarted(runId: string): void;
  onDeleted(): void;
}

export function RunView({ runId, focusHeading, onHeadingFocused, onStarted, onDeleted }: RunViewProps) {
  const { data: run, error } = useConformanceRun(runId);
  const { data: suite = [] } = useConformanceCases();
  const heading = useRef<HTMLHeadingElement>(null);

  // Taken at mount: the page clears `focusHeading` once the focus moved.
  const [startedHere] = useState(focusHeading);

  useEffect(() => {
    if (!focusHeading) return;
    heading.current?.focus();
    onHeadingFocused();
  }, [focusHeading, onHeadingFocused]);

  return (
    <section className={styles.run} aria-labelledby="check-run-title" data-run-id={runId} data-status={run?.status}>
      <header className={styles.runHead}>
        <h2 id="check-run-title" ref={heading} tabIndex={-1}>
          {run ? (
            <>
              <StatusPill run={run} /> <span className={styles.runUrl}>{run.baseUrl}</span>
            </>
          ) : (
            `Run ${runId}`
          )}
        </h2>
        {run && <RunActions run={run} onStarted={onStarted} onDeleted={onDeleted} />}
      </header>
      {error && (
        <p role="alert" className={styles.fieldError}>
          {error.message}
        </p>
      )}
      {run ? <RunBody run={run} suite={suite} startedHere={startedHere} /> : !error && <Hint block>Loading…</Hint>}
    </section>
  );
}

function RunBody({
  run,
  suite,
  startedHere,
}: {
  run: ConformanceRun;
  suite: readonly ConformanceCaseInfo[];
  startedHere: boolean;
}) {
  const rows = caseRows(suite, run);
  const unreachable = run.error?.kind === 'unreachable';
  return (
    <>
      <p className={styles.summary} data-status={conformanceRunWord(run)} aria-label="Summary">
        {summaryLine(run)}
      </p>
      <EndAnnouncement run={run} startedHere={startedHere} />
      {run.authorization && (
        <Hint block className={styles.meta}>
          Authorization {run.authorization}
          {run.rerunOf ? ` · a rerun of ${run.rerunOf}` : ''}
        </Hint>
      )}
      {run.rerunOf && run.status !== 'running' && <SinceRerun run={run} rerunOf={run.rerunOf} />}
      {run.status === 'running' && <RunProgress summary={run.summary} current={currentCase(rows)} />}
      {run.error && (
        <p className={styles.runError} data-kind={run.error.kind}>
          {run.error.message}
        </p>
      )}
      {!unreachable && <RunResults rows={rows} />}
    </>
  );
}

/**
 * A rerun's answer to "did my fix work?": each case the run it reruns failed, fixed or not, and
 * what fails only now. Nothing when that run was deleted, or neither failed a case.
 */
function SinceRerun({ run, rerunOf }: { run: ConformanceRun; rerunOf: string }) {
  const { data: before } = useConformanceRun(rerunOf);
  if (!before) return null;
  const text = rerunDiffText(rerunDiff(before, run));
  if (text === null) return null;
  return (
    <p className={styles.sinceRerun} aria-label="Since the run it reruns">
      Since the run it reruns ({new Date(before.startedAt).toLocaleTimeString('en-GB')}): {text}
    </p>
  );
}

/**
 * Says how a run ended, once, when it was watched running or started from here: a screen reader
 * hears the verdict without hearing every case settle (the bar's value is there to be read).
 */
function EndAnnouncement({ run, startedHere }: { run: ConformanceRun; startedHere: boolean }) {
  const [watched] = useState(startedHere || run.status === 'running');
  const ended = watched && run.status !== 'running';
  return (
    <p className="sr-only" role="status">
      {ended ? [summaryLine(run), run.error?.message].filter(Boolean).join('. ') : ''}
    </p>
  );
}
