/**
 * "Check a server" (docs/contract/console.md §8): the console plays the platform's player against
 * a cloud queue server, the integrator's or one of its own queues, and says rule by rule where it
 * breaks the contract, each verdict linked to the traffic that proves it. Runs are kept with the
 * server they checked, and can be exported, rerun and deleted.
 */
import { useCallback, useState } from 'react';
import { useConformanceEventWiring, useConformanceRuns } from '../../queries/conformance';
import { CheckForm } from './CheckForm';
import { RunList } from './RunList';
import { RunView } from './RunView';
import { useConformanceView } from './view-state';
import { Hint } from './Hint';
import styles from './ConformancePage.module.css';

export function ConformancePage() {
  useConformanceEventWiring();
  const { data: runs = [], error, isPending: runsPending } = useConformanceRuns();
  const { selected, select } = useConformanceView();
  // Where the focus goes next: the heading of a run just started, or the runs list after a delete.
  const [focusRun, setFocusRun] = useState<string | null>(null);
  const [focusList, setFocusList] = useState(0);
  const onHeadingFocused = useCallback(() => setFocusRun(null), []);

  // The run chosen, else the newest. A run just started is shown before the list has it.
  const runId = selected ?? runs[0]?.id ?? null;

  const onStarted = (id: string) => {
    select(id);
    setFocusRun(id);
  };
  const onDeleted = () => {
    select(null);
    setFocusList((n) => n + 1);
  };

  return (
    <section className={styles.page} aria-labelledby="page-title">
      <header className={`page-header ${styles.pageHeader}`}>
        <h1 id="page-title">Check a server</h1>
        <Hint>
          the platform’s player against a cloud queue server, rule by rule, with the traffic that proves each verdict
        </Hint>
      </header>
      <div className={styles.layout}>
        <div className={styles.side}>
          <div className={styles.panel}>
            <CheckForm onStarted={onStarted} />
          </div>
          <section className={styles.panel} aria-labelledby="check-runs-title">
            <div className={styles.panelHead}>
              <h2 id="check-runs-title">Runs</h2>
              <Hint>{runs.length ? `${runs.length} kept` : ''}</Hint>
            </div>
            {error && (
              <p role="alert" className={styles.fieldError}>
                {error.message}
              </p>
            )}
            <RunList runs={runs} loading={runsPending} selectedId={runId} onSelect={select} focusRequest={focusList} />
          </section>
        </div>
        <div className={styles.main}>
          {runId ? (
            <RunView
              key={runId}
              runId={runId}
              focusHeading={focusRun === runId}
              onHeadingFocused={onHeadingFocused}
              onStarted={onStarted}
              onDeleted={onDeleted}
            />
          ) : (
            <div className={styles.empty}>
              <p>
                Give a server’s base URL and the Authorization its requests need, or choose one of the console’s own
                queues, and run the checks.
              </p>
              <Hint block>
                Each case names the contract rule it checks and links the requests it judged in the traffic log. The
                same suite runs as <code>cloud-queue-console check BASE_URL</code> and over the admin API (
                <code>POST /admin/api/conformance/runs</code>).
              </Hint>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
