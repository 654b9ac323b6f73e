/**
 * Every transition of the player with its cause (request, response, timer, user, command) and the
 * table row that fired, newest first. Each row is a link target for the traffic log. A scenario
 * report shows the transitions it caused with the same table, oldest first, with their player.
 */
import { Link } from '@tanstack/react-router';
import type { PlayerTransition } from '@engine-api/player-types';
import { formatEngineClock } from '../format/engine-time';
import { DataTable } from './DataTable';
import styles from './Timeline.module.css';

interface TimelineProps {
  transitions: PlayerTransition[];
  label?: string;
  /** The player's own timeline: newest first, each row a link target. */
  live?: boolean;
  showPlayer?: boolean;
  /** The transition a link from the traffic log points at. */
  marked?: number | null;
}

export function Timeline({
  transitions,
  label = 'Transitions',
  live = true,
  showPlayer = false,
  marked = null,
}: TimelineProps) {
  if (transitions.length === 0) return <p className="muted">No transitions yet.</p>;
  return (
    <DataTable dense scroll={label} maxHeight="320px" className={styles.timeline}>
      <thead>
        <tr>
          <th scope="col">Engine time</th>
          {showPlayer && <th scope="col">Player</th>}
          <th scope="col">Change</th>
          <th scope="col">Event</th>
          <th scope="col">Cause</th>
          <th scope="col">Rule</th>
          <th scope="col">Detail</th>
          <th scope="col">Request</th>
        </tr>
      </thead>
      <tbody>
        {(live ? [...transitions].reverse() : transitions).map((t) => (
          <tr
            key={t.seq}
            id={live ? `transition-${t.seq}` : undefined}
            data-transition={t.transition}
            data-marked={t.seq === marked || undefined}
            aria-current={t.seq === marked || undefined}
          >
            <td>
              <code>{formatEngineClock(t.at)}</code>
            </td>
            {showPlayer && <td>{t.playerId}</td>}
            <td>
              {t.from === t.to ? <span className="muted">{t.to}</span> : <strong>{`${t.from} → ${t.to}`}</strong>}
            </td>
            <td>
              <code>{t.event}</code>
            </td>
            <td>
              <span className={styles.cause} data-cause={t.cause}>
                {t.cause}
              </span>
            </td>
            <td>
              <code>{t.transition}</code>
            </td>
            <td className={styles.detail}>{t.detail ?? ''}</td>
            <td>
              {t.requestId && (
                <Link
                  to="/traffic"
                  search={{ request: t.requestId }}
                  aria-label={`The request behind ${t.transition} at ${formatEngineClock(t.at)} in the traffic log`}
                  title={t.requestId}
                >
                  in the traffic log
                </Link>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
