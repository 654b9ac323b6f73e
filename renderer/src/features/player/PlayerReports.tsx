/**
 * The timePlayed reports the player posted, as the console's cloud queue server stored them
 * (docs/contract/platform.md §2.3): so "reports reach the server" is seen beside the player, not
 * under Queues → queue → Reports. A player on another server's queue has none here.
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { PlayerDetail } from '@engine-api/player-types';
import { ReportsTable } from '../../components/ReportsTable';
import { useEngineState } from '../../queries/engine-state';
import { useQueueList } from '../../queries/queues';
import { usePlayedQueue, usePlayerReports } from '../../queries/player-workbench';
import styles from './PlayerReports.module.css';

const SHOWN = 30;

/** A base URL on the console's own cloud queue server (its listener's origin, `/queues/…`). */
export function isOwnQueueUrl(queueBaseUrl: string, cloudQueue: string): boolean {
  if (!URL.canParse(queueBaseUrl) || !URL.canParse(cloudQueue)) return false;
  const url = new URL(queueBaseUrl);
  return url.origin === new URL(cloudQueue).origin && url.pathname.startsWith('/queues/');
}

/** `playerName`: how the tabs name the player. Keyed by the player: it remembers the queue the player last played, whose reports stay after the player clears its queue (a 404). */
export function PlayerReports({ detail, playerName }: { detail: PlayerDetail; playerName: string }) {
  const [played, setPlayed] = useState(detail.queueBaseUrl);
  if (detail.queueBaseUrl && detail.queueBaseUrl !== played) setPlayed(detail.queueBaseUrl);
  const queueBaseUrl = detail.queueBaseUrl ?? played;
  const queue = usePlayedQueue(queueBaseUrl);
  const queues = useQueueList();
  const ownServer = useEngineState().data?.urls.cloudQueue;
  const reports = usePlayerReports(queue?.id ?? null, detail.id).data ?? [];
  if (!queueBaseUrl) return <p className="muted">No queue loaded.</p>;
  if (!queue && (queues.isPending || !ownServer)) return <p className="muted">Reading the console’s queues…</p>;
  if (!queue)
    return (
      <p className="muted">
        {isOwnQueueUrl(queueBaseUrl, ownServer!)
          ? 'The queue it played is no longer on this console (deleted): its reports went with it.'
          : 'The player plays another server’s queue: its reports went there.'}
      </p>
    );
  return (
    <>
      <p className={`muted ${styles.caption}`}>
        {reports.length} from {playerName}, stored for{' '}
        <Link to="/queues" search={{ queue: queue.id }}>
          {queue.name}
        </Link>
      </p>
      {reports.length > 0 && <ReportsTable reports={reports.slice(0, SHOWN)} onePlayer scroll="Reports posted" />}
    </>
  );
}
