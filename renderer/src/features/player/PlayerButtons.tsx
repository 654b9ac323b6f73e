/**
 * The player's own buttons (docs/contract/console.md §7 user actions), with a clear answer when one
 * is refused, and its seek controls: −10 s / +10 s and a position, sent through the real control
 * API (`playback:1/seek`, `seekRelative`) with the console's own token, as the command bar sends
 * its commands. Each says why it is off when it is (nothing loaded, suspended, canSeek false).
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { ControlExchange } from '@engine-api/commands/player';
import type { PlayerAction, PlayerDetail } from '@engine-api/player-types';
import { useApi } from '../../api/context';
import { PauseIcon, PlayIcon, SkipNextIcon, SkipPrevIcon } from '../../components/icons';
import { seekPath } from './command-drafts';
import styles from './PlayerButtons.module.css';

const BUTTONS: { action: PlayerAction; label: ReactNode; title: string }[] = [
  { action: 'skipPrev', label: <SkipPrevIcon />, title: 'Skip to the previous track' },
  { action: 'play', label: <PlayIcon />, title: 'Play' },
  { action: 'pause', label: <PauseIcon />, title: 'Pause' },
  { action: 'skipNext', label: <SkipNextIcon />, title: 'Skip to the next track' },
  { action: 'resume', label: 'Resume', title: 'Resume a suspended session (reason=resume)' },
];

const SEEK_STEP_MS = 10_000;

/** A refusal's reason as a sentence, for a button's title. */
const sentence = (reason: string) => reason.charAt(0).toUpperCase() + reason.slice(1);

/**
 * Why the seek controls are off, or null when they are on: the engine's precondition table says
 * (`refusals`), the same row a seek sent now would be refused by.
 */
export function seekBlocked(detail: Pick<PlayerDetail, 'refusals'>): string | null {
  const reason = detail.refusals.seek?.reason;
  return reason ? sentence(reason) : null;
}

/**
 * Why the button of `action` is off, or null when it is on. The engine's table answers for every
 * action, as for a press; Resume is also off while the session is awake, because there it would
 * only be a Play under another name.
 */
export function actionBlocked(detail: Pick<PlayerDetail, 'refusals' | 'state'>, action: PlayerAction): string | null {
  const reason = detail.refusals[action]?.reason;
  if (reason) return sentence(reason);
  if (action === 'resume' && detail.state !== 'SUSPENDED')
    return 'The session is not suspended: there is nothing to resume';
  return null;
}

/** A refused control API answer as one line: its errorCode and reason. */
function refusal(exchange: ControlExchange): string {
  const body = exchange.body as { errorCode?: string; reason?: string } | string | null;
  if (body && typeof body === 'object' && body.errorCode) return `${body.errorCode}: ${body.reason ?? ''}`;
  return `${exchange.status} ${typeof body === 'string' ? body : JSON.stringify(body)}`;
}

export function PlayerButtons({ detail }: { detail: PlayerDetail }) {
  const api = useApi();
  const act = useMutation({ mutationFn: (action: PlayerAction) => api.call('players.act', { id: detail.id, action }) });
  const seek = useMutation({
    mutationFn: async ({ command, body }: { command: 'seek' | 'seekRelative'; body: Record<string, unknown> }) => {
      const exchange = await api.call('control.send', {
        method: 'POST',
        path: seekPath(command, 'group', detail)!,
        body,
      });
      if (exchange.status >= 400) throw new Error(refusal(exchange));
      return exchange;
    },
  });
  const [seconds, setSeconds] = useState('');
  const blocked = seekBlocked(detail);
  const busy = act.isPending || seek.isPending;
  // The item it was pressed for: a press that lands as the next track starts is refused, not applied to it.
  const item = detail.itemId ? { itemId: detail.itemId } : {};
  const duration = detail.track?.durationMillis;
  // Said beside the field as it is typed: a seek to -5 or "abc" did nothing without a word (audit).
  const typedMillis = Math.round(Number(seconds) * 1000);
  const seekProblem = seekProblemOf(seconds, duration);
  const goTo = (event: FormEvent) => {
    event.preventDefault();
    if (seconds.trim() === '' || seekProblem !== null) return;
    seek.mutate({ command: 'seek', body: { positionMillis: typedMillis, ...item } });
  };
  const error = act.error ?? seek.error;
  // The answer to a refused press goes under the panel's head, across it: inside the button row
  // it squeezed the "Now playing" heading onto two lines.
  return (
    <>
      <div className={styles.playerButtons} role="group" aria-label="Player buttons">
        {BUTTONS.map((b) => {
          const off = actionBlocked(detail, b.action);
          return (
            <button
              key={b.action}
              type="button"
              aria-label={b.title}
              title={off ?? b.title}
              disabled={off !== null || busy}
              onClick={() => {
                seek.reset();
                act.mutate(b.action);
              }}
            >
              {b.label}
            </button>
          );
        })}
      </div>
      <form className={styles.playerButtons} aria-label="Seek" title={blocked ?? undefined} onSubmit={goTo}>
        {[-SEEK_STEP_MS, SEEK_STEP_MS].map((deltaMillis) => (
          <button
            key={deltaMillis}
            type="button"
            // The name opens with the words shown, so a voice user can say them (WCAG 2.5.3).
            aria-label={deltaMillis < 0 ? '−10 s, seek back' : '+10 s, seek forward'}
            title={blocked ?? `seekRelative ${deltaMillis > 0 ? '+' : ''}${deltaMillis} ms`}
            disabled={blocked !== null || busy}
            onClick={() => {
              act.reset();
              seek.mutate({ command: 'seekRelative', body: { deltaMillis, ...item } });
            }}
          >
            {deltaMillis < 0 ? '−10 s' : '+10 s'}
          </button>
        ))}
        <input
          aria-label="Seek to (seconds)"
          inputMode="decimal"
          placeholder="s"
          size={5}
          value={seconds}
          aria-invalid={seekProblem !== null}
          aria-describedby={seekProblem ? 'seek-problem' : undefined}
          disabled={blocked !== null}
          title={blocked ?? (duration ? `0 to ${Math.floor(duration / 1000)} s` : 'seconds into the track')}
          onChange={(e) => setSeconds(e.target.value)}
        />
        <button
          type="submit"
          disabled={blocked !== null || busy || seconds.trim() === '' || seekProblem !== null}
          title={blocked ?? 'seek to this position'}
        >
          Seek
        </button>
      </form>
      {seekProblem && (
        <p id="seek-problem" className={`${styles.refused} ${styles.headAnswer}`} role="alert">
          {seekProblem}
        </p>
      )}
      {blocked && detail.state !== 'IDLE' && (
        <p className={`muted ${styles.headAnswer}`} role="note">
          Seek: {blocked}.
        </p>
      )}
      {error && (
        <p className={`${styles.refused} ${styles.headAnswer}`} data-outcome="bad" role="alert">
          {error.message}
        </p>
      )}
    </>
  );
}

/**
 * What is wrong with a seek typed as seconds, or null: not a number, below 0, or past the track's
 * end (audit: 9999 on a 164 s track ended it without a word, though the field's hint says 0 to 164 s).
 */
export function seekProblemOf(seconds: string, durationMillis: number | undefined): string | null {
  if (seconds.trim() === '') return null;
  const millis = Math.round(Number(seconds) * 1000);
  if (!(Number.isFinite(millis) && millis >= 0)) return 'Seek to a number of seconds, 0 or more.';
  if (durationMillis !== undefined && durationMillis > 0 && millis > durationMillis)
    return `The track is ${Math.floor(durationMillis / 1000)} s long: seek to 0 to ${Math.floor(durationMillis / 1000)} s.`;
  return null;
}
