/**
 * One fleet: while it plays, its progress, charts and Stop; at its end the same charts and
 * figures with the thresholds' outcome, and its report to download (JSON, JUnit, HTML).
 */
import { FLEET_REPORT_FORMATS_SHOWN, FleetDownloads } from './FleetDownloads';
import { FleetCharts, FleetProgress } from './FleetLive';
import { FleetLiveFaults } from './FleetLiveFaults';
import { FleetEndpoints, FleetThresholds, FleetTotals, FleetViolations } from './FleetSummary';
import { Badge } from '../../components/Badge';
import { fleetState } from './fleet-list';
import { useFleet, useStopFleet } from './queries';
import styles from './FleetView.module.css';

/** Its heading says the list's word and the report's (passed, failed, stopped, unreachable): one function makes all three. */
export function FleetView({ id }: { id: string }) {
  const { data: report, error } = useFleet(id);
  const stop = useStopFleet();
  if (error)
    return (
      <p role="alert" className="error">
        Fleet {id} could not be read: {error.message}
      </p>
    );
  if (!report) return <p className="muted">Reading fleet {id}…</p>;
  const running = report.status === 'running';
  const failed = report.thresholds.filter((t) => !t.ok).length;
  // A badge as in the list: the verdict at a glance (it was small grey text: review).
  const state = fleetState({ status: report.status, verdict: report.verdict, errorKind: report.error?.kind ?? null });
  return (
    <section className={styles.view} aria-labelledby="fleet-title">
      <div className={`panel ${styles.section}`}>
        <div className="panel-head">
          <h2 id="fleet-title">
            Fleet {report.id}{' '}
            <Badge tone={state.tone} data-testid="fleet-status">
              {state.word}
            </Badge>
          </h2>
          {running && (
            <button type="button" className="danger" onClick={() => stop.mutate(report.id)} disabled={stop.isPending}>
              {stop.isPending ? 'Stopping…' : 'Stop'}
            </button>
          )}
        </div>
        <FleetProgress report={report} />
        {report.timeNote && <p className={styles.note}>{report.timeNote}</p>}
        {report.notes.map((note) => (
          <p key={note} className={styles.note}>
            {note}
          </p>
        ))}
        {report.error && (
          <p role="alert" className="error">
            The fleet could not play ({report.error.kind}): {report.error.message}
          </p>
        )}
        {stop.error && (
          <p role="alert" className="error">
            The fleet did not stop: {stop.error.message}
          </p>
        )}
        {running && <FleetLiveFaults report={report} />}
      </div>
      <div className={`panel ${styles.section}`}>
        <FleetCharts report={report} />
      </div>
      {!running && (
        <div className={`panel ${styles.section}`} aria-labelledby="fleet-summary-title">
          <div className="panel-head">
            <h2 id="fleet-summary-title">
              Summary:{' '}
              {report.thresholds.length === 0
                ? 'no thresholds'
                : report.thresholds.some((t) => t.notJudged)
                  ? 'thresholds not judged: the fleet did not play'
                  : failed === 0
                    ? report.status === 'stopped'
                      ? 'every threshold passed, over what it played before it was stopped'
                      : 'every threshold passed'
                    : `${failed} of ${report.thresholds.length} thresholds failed`}
            </h2>
            <FleetDownloads id={report.id} formats={FLEET_REPORT_FORMATS_SHOWN} />
          </div>
          <FleetThresholds report={report} />
        </div>
      )}
      <div className={`panel ${styles.section}`}>
        <FleetTotals report={report} />
      </div>
      <div className={`panel ${styles.section}`}>
        <div className="panel-head">
          <h2>Violations by rule</h2>
        </div>
        <FleetViolations report={report} />
      </div>
      <div className={`panel ${styles.section}`}>
        <div className="panel-head">
          <h2>Endpoints</h2>
        </div>
        <FleetEndpoints report={report} />
      </div>
    </section>
  );
}
