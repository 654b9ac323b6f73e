/**
 * What each player does with this queue, as the server sees it: the item it is on, the window it
 * last asked for (reason, anchor, sizes) and what it got, and its last timePlayed report.
 */
import type { PlayerQueueActivity, QueueActivityView } from '@engine-api/queue-types';
import { formatEngineMoment } from '../../format/engine-time';
import { useEngineDay } from '../../stores/clock';
import { playerLabel } from './marks';
import styles from './PlayersPanel.module.css';

export interface PlayersPanelProps {
  /** Undefined while it is read: said as such, not as "No player has called". */
  activity: QueueActivityView | undefined;
  /** Why it could not be read, when it could not. */
  error?: string | null;
  colors: Map<string, string>;
  onShowItem(itemId: string): void;
}

export function PlayersPanel({ activity, error = null, colors, onShowItem }: PlayersPanelProps) {
  if (!activity) {
    return error ? (
      <p className="error">The players of this queue could not be read: {error}</p>
    ) : (
      <p className="muted" role="status">
        Reading the players of this queue…
      </p>
    );
  }
  const players = activity.players;
  if (players.length === 0) {
    return (
      <p className="muted">
        No player has called this queue yet. Point a player at its base URL (loadCloudQueue) and its requests show here.
      </p>
    );
  }
  return (
    <ul className={styles.playersActivity} aria-label="Players of this queue">
      {players.map((player) => (
        <PlayerCard
          key={player.playerId ?? ''}
          player={player}
          color={colors.get(player.playerId ?? '') ?? 'var(--muted)'}
          onShowItem={onShowItem}
        />
      ))}
    </ul>
  );
}

function PlayerCard({
  player,
  color,
  onShowItem,
}: {
  player: PlayerQueueActivity;
  color: string;
  onShowItem(itemId: string): void;
}) {
  const window = player.itemWindow;
  const ids = window?.window?.itemIds ?? [];
  const today = useEngineDay();
  return (
    <li className={styles.playerCard} style={{ borderLeftColor: color }} aria-label={playerLabel(player)}>
      <div className={styles.playerCardHead}>
        <strong>{playerLabel(player)}</strong>
        {player.playerId && player.playerName && <code className="muted">{player.playerId}</code>}
        <span className="muted">
          last {player.lastRequest.kind} {player.lastRequest.status} at{' '}
          {formatEngineMoment(player.lastRequest.at, today)}
        </span>
      </div>
      <div>
        On{' '}
        {player.currentItemId ? (
          <button type="button" className="link" onClick={() => onShowItem(player.currentItemId!)}>
            {player.currentItemId}
          </button>
        ) : (
          <span className="muted">no item yet</span>
        )}
      </div>
      {window && (
        <div className={styles.windowRecord} data-status={window.status}>
          <div>
            Last window: <code>reason={window.reason ?? '—'}</code> <code>itemId={window.itemId ?? '(first)'}</code>{' '}
            <code>
              {window.previousWindowSize ?? '·'}/{window.upcomingWindowSize ?? '·'}
            </code>{' '}
            → <span className={styles.status}>{window.status}</span> at {formatEngineMoment(window.at, today)}
          </div>
          {window.window ? (
            <div className="muted">
              {ids.length} items {ids[0]} … {ids.at(-1)} · queueVersion {window.window.queueVersion}
              {window.window.includesBeginningOfQueue ? ' · includes beginning' : ''}
              {window.window.includesEndOfQueue ? ' · includes end' : ''}
            </div>
          ) : (
            <div className="error">{window.error}</div>
          )}
        </div>
      )}
      {player.lastReport && (
        <div className="muted">
          Last report: {player.lastReport.type} for {player.lastReport.itemId} at{' '}
          {formatEngineMoment(player.lastReport.receivedAt, today)} (played{' '}
          {Math.round(player.lastReport.report.durationPlayedMillis / 1000)} s, at{' '}
          {Math.round(player.lastReport.report.positionMillis / 1000)} s)
        </div>
      )}
    </li>
  );
}
