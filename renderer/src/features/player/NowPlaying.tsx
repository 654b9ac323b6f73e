/** The playing track with its playhead, moved with the engine clock between pushes. */
import type { PlayerDetail } from '@engine-api/player-types';
import { useEngineNow } from '../../stores/clock';
import { CONTROL_COMMAND_FIELD, LOAD_QUEUE_FIELD } from './command-drafts';
import styles from './NowPlaying.module.css';

export function formatMillis(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

export function NowPlaying({ detail }: { detail: PlayerDetail }) {
  const now = useEngineNow();
  const track = detail.track;
  if (!track)
    return (
      <p className="muted">
        Nothing loaded. Load a cloud queue on this group with the{' '}
        <button type="button" className="link in-text" onClick={focusLoadForm}>
          Control API form
        </button>
        .
      </p>
    );
  const duration = track.durationMillis ?? 0;
  const moving = detail.state === 'PLAYING' && now !== null;
  const position = Math.min(duration || Infinity, detail.positionMillis + (moving ? Math.max(0, now - detail.at) : 0));
  return (
    <div className={styles.nowPlaying}>
      <div className={styles.trackTitle}>
        <strong>{track.name ?? track.id ?? 'Untitled track'}</strong>
        <span className="muted">{[track.artist?.name, track.album?.name].filter(Boolean).join(' · ')}</span>
      </div>
      <div
        className={styles.progress}
        role="progressbar"
        aria-label="Playhead"
        aria-valuemin={0}
        aria-valuemax={duration}
        aria-valuenow={Math.round(position)}
      >
        <div className={styles.progressFill} style={{ width: duration ? `${(position / duration) * 100}%` : '0%' }} />
      </div>
      <div className={styles.progressTimes}>
        <code data-testid="position">{formatMillis(position)}</code>
        <code className="muted" title={track.id === null ? 'The item id comes with the load’s answer' : undefined}>
          {track.id ?? 'no item id yet'}
        </code>
        <code>{duration ? formatMillis(duration) : '—'}</code>
      </div>
    </div>
  );
}

/**
 * The form is at the foot of the page, below the fold at 1440 px: the line that says to use it
 * takes the user there, to the queue to load if the form is on loadCloudQueue (outsider).
 */
function focusLoadForm() {
  const target = document.getElementById(LOAD_QUEUE_FIELD) ?? document.getElementById(CONTROL_COMMAND_FIELD);
  target?.scrollIntoView({ block: 'center' });
  target?.focus();
}
