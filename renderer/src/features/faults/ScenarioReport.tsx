/**
 * A scenario run as it happened: pass, fail or not checked at a glance, each step with its outcome and
 * message (the failing one stands out, the skipped ones are dimmed; steps counted from 1), what
 * the run put back when it ended, and the player transitions the run caused, in order.
 */
import type { ScenarioReport as Report } from '@engine-api/scenario-types';
import { formatEngineClock } from '../../format/engine-time';
import { notCheckedAdvice, verdictOf, type ScenarioVerdict } from '@engine-api/scenario-verdict';
import { Badge, type BadgeTone } from '../../components/Badge';
import { Timeline } from '../../components/Timeline';
import { restoredText, stepNumber } from '../../format/scenario-report';
import { formatExactSpan } from '../../format/span';
import styles from './ScenarioReport.module.css';

export function ResultBadge({ report, running = false }: { report: Report | null | undefined; running?: boolean }) {
  if (running)
    return (
      <Badge tone="info" state="running">
        running…
      </Badge>
    );
  if (!report) return <Badge>not run</Badge>;
  const verdict = verdictOf(report);
  return (
    <Badge tone={TONE[verdict]} state={stateOf(verdict)}>
      {verdict}
    </Badge>
  );
}

const TONE: Record<ScenarioVerdict, BadgeTone> = { passed: 'ok', failed: 'bad', 'not checked': 'warn' };
const stateOf = (verdict: ScenarioVerdict): string => verdict.replace(' ', '-');

export function ScenarioReport({ report }: { report: Report }) {
  const failed = report.steps.find((s) => s.status === 'failed');
  const verdict = verdictOf(report);
  return (
    <section className={styles.scenarioReport} aria-label="Scenario report">
      <div className={styles.reportHead}>
        <strong className={styles.result} data-state={stateOf(verdict)} data-testid="scenario-result">
          {verdict.toUpperCase()}
        </strong>
        <span>{report.name}</span>
        <span className="muted">
          ran at {formatEngineClock(report.startedAt)} · {formatExactSpan(report.endedAt - report.startedAt)} of engine
          time in {report.wallMs} ms
        </span>
      </div>
      {failed && (
        <p className="error" role="alert">
          Step {stepNumber(failed.index)} ({failed.type}) failed: {failed.message}
        </p>
      )}
      {report.notChecked && (
        <p className={styles.notChecked} role="status">
          Not a pass: {report.notChecked}. {notCheckedAdvice(report)}.
        </p>
      )}
      <ol className={styles.reportSteps} aria-label="Steps">
        {report.steps.map((step) => (
          // An expectation the run could not hold a player to is drawn as a step not run: not met.
          <li key={step.index} data-status={step.unchecked ? 'skipped' : step.status}>
            <span className={styles.stepStatus}>{step.unchecked ? 'not checked' : step.status}</span>
            <code>
              {stepNumber(step.index)} · {step.type}
            </code>
            <span className={styles.stepMessage}>{step.message}</span>
          </li>
        ))}
      </ol>
      {report.restored && <p className="muted">After the run: {restoredText(report.restored)}.</p>}
      <h3>Transitions it caused</h3>
      <Timeline transitions={report.transitions} label="Transitions caused" live={false} showPlayer />
    </section>
  );
}
