/**
 * What a fleet measured, live and at its end: the totals, the thresholds each passed or failed (in
 * a word beside its colour), violations by rule each linked to its sample exchange in Traffic,
 * latency percentiles and requests per endpoint.
 */
import { Link } from '@tanstack/react-router';
import type { FleetReport, LatencySummary } from '@engine-api/fleet-types';
import { failuresSaid } from '@engine-api/fleet-failures';
import { DataTable } from '../../components/DataTable';
import { figure, thresholdFigure } from './chart';
import styles from './FleetSummary.module.css';

const ms = (value: number) => (Number.isFinite(value) ? `${figure(value)} ms` : '–');
const count = (value: number) => value.toLocaleString('en-US');

export function FleetTotals({ report }: { report: FleetReport }) {
  const { totals, latency } = report;
  const items: [string, string][] = [
    ['Requests', count(totals.requests)],
    ['Requests/s', figure(totals.requestsPerSecond)],
    ['Errors', `${count(totals.errors)} (${figure(totals.errorRate * 100)}%)`],
    ['Transport errors', count(totals.transportErrors)],
    ['Retries', count(totals.retries)],
    ['Violations', count(totals.violations)],
    ['p50 / p99', `${ms(latency.p50)} / ${ms(latency.p99)}`],
    ['Traffic logged', `${count(report.traffic.logged)} (${count(report.traffic.skipped)} left out)`],
  ];
  return (
    <dl className={styles.totals} aria-label="Fleet totals">
      {items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function FleetThresholds({ report }: { report: FleetReport }) {
  if (report.thresholds.length === 0) return <p className="muted">No thresholds were set.</p>;
  return (
    <DataTable aria-label="Thresholds">
      <thead>
        <tr>
          <th scope="col">Threshold</th>
          <th scope="col">Measured</th>
          <th scope="col">Outcome</th>
        </tr>
      </thead>
      <tbody>
        {report.thresholds.map((t) => (
          <tr key={t.expression}>
            <td>
              <code>{t.expression}</code>
            </td>
            <td className={styles.number}>
              {t.notJudged ? (
                '–'
              ) : (
                <>
                  {thresholdFigure(t.actual)}
                  {t.unit === '/s' || t.unit === '%' ? t.unit : t.unit ? ` ${t.unit}` : ''}
                </>
              )}
            </td>
            <td>
              <span className={t.ok ? styles.pass : styles.fail} title={t.notJudged}>
                {t.notJudged ? 'not judged' : t.ok ? 'passed' : 'failed'}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

export function FleetViolations({ report }: { report: FleetReport }) {
  if (report.violations.length === 0) return <p className="muted">No contract violations.</p>;
  return (
    <DataTable aria-label="Violations by rule">
      <thead>
        <tr>
          <th scope="col">Rule</th>
          <th scope="col">Count</th>
          <th scope="col">First said</th>
          <th scope="col">Sample</th>
        </tr>
      </thead>
      <tbody>
        {report.violations.map((v) => (
          <tr key={v.rule}>
            <td>
              <code>{v.rule}</code>
              {v.severity === 'warning' && <span className="muted"> · warning</span>}
            </td>
            <td className={styles.number}>{count(v.count)}</td>
            <td className={styles.message}>{v.message}</td>
            <td>
              {v.sample.trafficId === null ? (
                <span className="muted">not logged</span>
              ) : (
                <Link
                  to="/traffic"
                  search={{ entry: v.sample.trafficId }}
                  aria-label={`Traffic entry ${v.sample.trafficId}, a sample of ${v.rule}`}
                >
                  #{v.sample.trafficId}
                </Link>
              )}{' '}
              <span className="muted">
                {v.sample.method} {v.sample.status ?? 'no answer'}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

function latencyCells(latency: LatencySummary | undefined) {
  return (['p50', 'p90', 'p99', 'max'] as const).map((q) => (
    <td key={q} className={styles.number}>
      {latency ? ms(latency[q]) : '–'}
    </td>
  ));
}

export function FleetEndpoints({ report }: { report: FleetReport }) {
  if (report.endpoints.length === 0)
    return <p className="muted">{report.status === 'running' ? 'No requests yet.' : 'No request was made.'}</p>;
  return (
    <DataTable aria-label="Requests and latency by endpoint" dense>
      <thead>
        <tr>
          <th scope="col">Endpoint</th>
          <th scope="col">Requests</th>
          <th scope="col">Retries</th>
          <th scope="col">Statuses</th>
          <th scope="col">p50</th>
          <th scope="col">p90</th>
          <th scope="col">p99</th>
          <th scope="col">max</th>
        </tr>
      </thead>
      <tbody>
        {report.endpoints.map((e) => (
          <tr key={`${e.endpoint} ${e.reason ?? ''}`}>
            <td>
              <code>
                {e.endpoint}
                {e.reason ? ` (${e.reason})` : ''}
              </code>
            </td>
            <td className={styles.number}>{count(e.requests)}</td>
            <td className={styles.number}>{count(e.retries)}</td>
            <td className={styles.statuses}>
              {Object.entries(e.statuses)
                .map(([status, n]) => `${status}×${count(n)}`)
                .concat(e.transportErrors ? [`no answer×${count(e.transportErrors)}`] : [])
                .join(' ')}
              {e.faulted ? <span className={styles.faulted}> ({count(e.faulted)} by fault rules)</span> : null}
              {e.failures ? <span className={styles.faulted}>{failuresSaid(e)}</span> : null}
              {e.redirected ? (
                <span className={styles.faulted}> ({count(e.redirected)} answered after redirects)</span>
              ) : null}
            </td>
            {latencyCells(report.latencyByEndpoint[e.endpoint])}
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
