/**
 * A fleet as it plays: elapsed engine time against its duration, players by state, and the live
 * charts (requests/s, retries/s, players by state over time), with the Stop button.
 */
import { FLEET_PLAYER_STATES, type FleetPlayerState, type FleetReport } from '@engine-api/fleet-types';
import { figure, perSecond, stateSeries } from './chart';
import { LineChart } from './LineChart';
import styles from './FleetLive.module.css';

export const STATE_COLORS: Record<FleetPlayerState, string> = {
  IDLE: 'var(--player-4)',
  BUFFERING: 'var(--warn)',
  PLAYING: 'var(--ok)',
  PAUSED: 'var(--accent)',
  SUSPENDED: 'var(--bad)',
};

const seconds = (ms: number) => `${figure(ms / 1000)} s`;

export function FleetProgress({ report }: { report: FleetReport }) {
  const duration = report.options.durationMs;
  const elapsed = Math.min(report.elapsed.engineMs, duration);
  return (
    <div className={styles.progress}>
      <div
        className={styles.bar}
        role="progressbar"
        aria-label="Fleet time played"
        aria-valuemin={0}
        aria-valuemax={duration}
        aria-valuenow={elapsed}
        aria-valuetext={`${seconds(elapsed)} of ${seconds(duration)}`}
      >
        <div className={styles.fill} style={{ width: `${duration ? (elapsed / duration) * 100 : 0}%` }} />
      </div>
      <span className={styles.figures} data-testid="fleet-elapsed">
        {seconds(elapsed)} of {seconds(duration)} · {report.players.joined.toLocaleString('en-US')} of{' '}
        {report.options.players.toLocaleString('en-US')} players joined
      </span>
      <ul className={styles.states} aria-label="Players by state">
        {FLEET_PLAYER_STATES.map((state) => (
          <li key={state} data-state={state}>
            <span className={styles.swatch} style={{ background: STATE_COLORS[state] }} aria-hidden="true" />
            {state} <strong>{(report.players.byState[state] ?? 0).toLocaleString('en-US')}</strong>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function FleetCharts({ report }: { report: FleetReport }) {
  const series = report.series;
  return (
    <div className={styles.charts} data-testid="fleet-charts">
      <LineChart
        title="Requests per second"
        unit="/s"
        series={[
          { name: 'requests', values: perSecond(series, 'requests'), color: 'var(--accent)' },
          { name: 'errors', values: perSecond(series, 'errors'), color: 'var(--bad)' },
        ]}
      />
      <LineChart
        title="Retries per second"
        unit="/s"
        series={[{ name: 'retries', values: perSecond(series, 'retries'), color: 'var(--warn)' }]}
      />
      <LineChart
        title="Players by state"
        unit=""
        series={FLEET_PLAYER_STATES.map((state) => ({
          name: state,
          values: stateSeries(series, state),
          color: STATE_COLORS[state],
        }))}
      />
    </div>
  );
}
