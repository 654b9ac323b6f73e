/** The player's own buttons (docs/contract/console.md §7 user actions), with a clear answer when one is refused. */
import { useMutation } from '@tanstack/react-query';
import type { PlayerAction, PlayerDetail } from '../../../../main/engine/api/player-types';
import type { ReactNode } from 'react';
import { useApi } from '../../api/context';
import { PauseIcon, PlayIcon, SkipNextIcon, SkipPrevIcon } from '../../components/icons';

const BUTTONS: { action: PlayerAction; label: ReactNode; title: string }[] = [
  { action: 'skipPrev', label: <SkipPrevIcon />, title: 'Skip to the previous track' },
  { action: 'play', label: <PlayIcon />, title: 'Play' },
  { action: 'pause', label: <PauseIcon />, title: 'Pause' },
  { action: 'skipNext', label: <SkipNextIcon />, title: 'Skip to the next track' },
  { action: 'resume', label: 'Resume', title: 'Resume a suspended session (reason=resume)' },
];

export function PlayerButtons({ detail }: { detail: PlayerDetail }) {
  const api = useApi();
  const act = useMutation({ mutationFn: (action: PlayerAction) => api.call('players.act', { id: detail.id, action }) });
  const idle = detail.state === 'IDLE';
  // The answer to a refused press goes under the panel's head, across it: inside the button row
  // it squeezed the "Now playing" heading onto two lines.
  return (
    <>
      <div className="player-buttons" role="group" aria-label="Player buttons">
        {BUTTONS.map((b) => (
          <button
            key={b.action}
            type="button"
            aria-label={b.title}
            title={b.title}
            disabled={idle || act.isPending || (b.action === 'resume' && detail.state !== 'SUSPENDED')}
            onClick={() => act.mutate(b.action)}
          >
            {b.label}
          </button>
        ))}
      </div>
      {act.isError && (
        <p className="answer bad panel-head-answer" role="alert">
          {act.error.message}
        </p>
      )}
    </>
  );
}
