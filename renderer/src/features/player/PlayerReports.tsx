/**
 * The timePlayed reports the player posted, as the console's cloud queue server stored them
 * (docs/contract/platform.md §2.3): so "reports reach the server" is seen beside the player, not
 * under Queues → queue → Reports. A player on another server's queue has none here.
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { PlayerDetail } from '@engine-api/player-types';
import { DataTable } from '../../components/DataTable';
import { formatEngineClock } from '../../format/engine-time';
import { usePlayedQueue, usePlayerReports } from '../../queries/player-workbench';
import styles from './player.module.css';

const SHOWN = 30;

/** Keyed by the player: it remembers the queue the player last played, whose reports stay after the player clears its queue (a 404). */
export function PlayerReports({ detail }: { detail: PlayerDetail }) {
  const [played, setPlayed] = useState(detail.queueBaseUrl);
  if (detail.queueBaseUrl && detail.queueBaseUrl !== played) setPlayed(detail.queueBaseUrl);
  const queueBaseUrl = detail.queueBaseUrl ?? played;
  const queue = usePlayedQueue(queueBaseUrl);
  const reports = usePlayerReports(queue?.id ?? null, detail.id).data ?? [];
  if (!queueBaseUrl) return <p className="muted">No queue loaded.</p>;
  if (!queue) return <p className="muted">The player plays another server’s queue: its reports went there.</p>;
  return (
    <>
      <p className={`muted ${styles.caption}`}>
        {reports.length} stored for{' '}
        <Link to="/queues" search={{ queue: queue.id }}>
          {queue.name}
        </Link>
      </p>
      {reports.length > 0 && (
        <div className={styles.scroll} role="region" aria-label="Reports posted" tabIndex={0}>
          <DataTable dense>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Type</th>
                <th scope="col">Item</th>
                <th scope="col">Played</th>
                <th scope="col">Position</th>
              </tr>
            </thead>
            <tbody>
              {reports.slice(0, SHOWN).map((r) => (
                <tr key={r.seq} data-report-type={r.type}>
                  <td>
                    <code>{formatEngineClock(r.receivedAt)}</code>
                  </td>
                  <td>{r.type}</td>
                  <td>
                    <code>{r.itemId}</code>
                  </td>
                  <td>{seconds(r.report.durationPlayedMillis)}</td>
                  <td>{seconds(r.report.positionMillis)}</td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        </div>
      )}
    </>
  );
}

function seconds(ms: unknown): string {
  return typeof ms === 'number' ? `${(ms / 1000).toFixed(1)} s` : '';
}
