/**
 * A scenario run as it happened: pass or fail at a glance, each step with its outcome and
 * message (the failing one stands out, the skipped ones are dimmed), and the player transitions
 * the run caused, in order.
 */
import type { ScenarioReport as Report } from '../../../../main/engine/api/scenario-types';
import { formatEngineClock } from '../player/Timeline';
import { formatSpan } from './scenario-text';

export function ResultBadge({ report }: { report: Report | null | undefined }) {
  if (!report) return <span className="pill">not run</span>;
  return (
    <span className="pill" data-state={report.passed ? 'passed' : 'failed'}>
      {report.passed ? 'passed' : 'failed'}
    </span>
  );
}

export function ScenarioReport({ report }: { report: Report }) {
  const failed = report.steps.find((s) => s.status === 'failed');
  return (
    <section className="scenario-report" aria-label="Scenario report">
      <div className="report-head">
        <strong className="result" data-state={report.passed ? 'passed' : 'failed'} data-testid="scenario-result">
          {report.passed ? 'PASSED' : 'FAILED'}
        </strong>
        <span>{report.name}</span>
        <span className="muted">
          ran at {formatEngineClock(report.startedAt)} · {formatSpan(report.endedAt - report.startedAt)} of engine time in {report.wallMs} ms
        </span>
      </div>
      {failed && (
        <p className="faults-error" role="alert">
          Step {failed.index} ({failed.type}) failed: {failed.message}
        </p>
      )}
      <ol className="report-steps" aria-label="Steps" start={0}>
        {report.steps.map((step) => (
          <li key={step.index} data-status={step.status}>
            <span className="step-status">{step.status}</span>
            <code className="step-type">
              {step.index} · {step.type}
            </code>
            <span className="step-message">{step.message}</span>
          </li>
        ))}
      </ol>
      <h3>Transitions it caused</h3>
      {report.transitions.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <div className="report-transitions" role="region" aria-label="Transitions caused" tabIndex={0}>
          <table className="rules-table">
            <thead>
              <tr>
                <th scope="col">Engine time</th>
                <th scope="col">Player</th>
                <th scope="col">Change</th>
                <th scope="col">Rule</th>
                <th scope="col">Cause</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {report.transitions.map((t) => (
                <tr key={t.seq} data-transition={t.transition}>
                  <td>
                    <code>{formatEngineClock(t.at)}</code>
                  </td>
                  <td>{t.playerId}</td>
                  <td>{t.from === t.to ? <span className="muted">{t.to}</span> : <strong>{`${t.from} → ${t.to}`}</strong>}</td>
                  <td>
                    <code>{t.transition}</code>
                  </td>
                  <td>{t.cause}</td>
                  <td className="muted">{t.detail ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
