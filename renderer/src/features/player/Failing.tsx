/**
 * A player whose requests fail now (`failing`: a run of failures of its newest requests to the
 * queue it plays or loads), shown where its state is: a PLAYING player whose reports are refused
 * (a token that expired a day in) looks PLAYING and nothing else, for reports never stop playback.
 * On its tab, the status in a red badge beside the state; in its panel, a sentence with the run
 * and the last failure, set as the last error's line is (its class given by the panel).
 */
import type { PlayerFailing } from '@engine-api/player-types';
import { Badge } from '../../components/Badge';
import { formatEngineClock, formatEngineTime } from '../../format/engine-time';
import styles from './Failing.module.css';

/** `401`, or "no answer" for a request that got no complete one. */
const statusOf = (failing: PlayerFailing) => (failing.status !== undefined ? String(failing.status) : 'no answer');

const inARow = (count: number) => (count === 1 ? 'the last request failed' : `the last ${count} requests failed`);

/** The mark on a player's tab: the word, the last status, and how many in a row (the rest on hover and in the panel). */
export function FailingMark({ failing }: { failing: PlayerFailing }) {
  const count = failing.count > 1 ? ` ×${failing.count}` : '';
  return (
    <Badge
      tone="bad"
      className={styles.mark}
      data-testid="player-failing"
      title={`${inARow(failing.count)} since ${formatEngineTime(failing.since)}; the last, ${failing.endpoint}: ${failing.message}`}
    >
      <span className="sr-only">requests </span>
      failing {statusOf(failing)}
      {count}
    </Badge>
  );
}

/**
 * The panel's line: since when, how many, and the last failure in words. Read out politely, in the
 * panel's status region (not an alert: its count moves with every failure, a report refused every
 * 30 s, and an alert would break into whatever a screen reader was reading each time).
 */
export function FailingLine({ failing, className }: { failing: PlayerFailing; className?: string }) {
  return (
    <p className={className} data-outcome="bad" data-testid="player-failing-line">
      Failing since{' '}
      <code title={formatEngineTime(failing.since, { millis: true })}>{formatEngineClock(failing.since)}</code>:{' '}
      {inARow(failing.count)}; the last, <code>{failing.endpoint}</code> at{' '}
      <code title={formatEngineTime(failing.at, { millis: true })}>{formatEngineClock(failing.at)}</code>:{' '}
      {failing.message}
    </p>
  );
}
