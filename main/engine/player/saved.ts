/**
 * What a player keeps across a restart of the engine (docs/contract/console.md §1: "a restart on the same data
 * dir finds everything it had"): its session, the queue the last loadCloudQueue named, the window
 * and track it holds and where the playhead is, and the requests it was still waiting on, asked
 * again from the start (their retries counted anew). A load that had not answered counts as
 * failed: the player is saved as its failure would leave it (docs/contract/platform.md §7.3: the queue before, with a
 * pause or suspension made since, and for a load that had started its track at once, the reports
 * its failure posts), and the control API caller already got an error. The player does not play
 * on while the engine is down: the playhead is where it stopped.
 */
import { isLoopbackHostname } from '../http/loopback.js';
import {
  policiesOf,
  type LoadedQueue,
  type PlaybackSession,
  type PlayerErrorRecord,
  type SavedAsking,
} from './context.js';
import type { PlayerCore } from './core.js';
import { reportIntervalsOf } from './contract-check.js';
import { askAgain } from './flows.js';
import { stateBeforeLoad, takeSnapshot } from './load-state.js';
import { askForNextWindowIfNear, bufferAgain, rescheduleVersionPoll, startTrackTimers } from './playback.js';
import { heldReportsToPost, postReport } from './reports.js';
import { TrackPlayback } from './track-playback.js';
import { restoreSession, setQueue } from './session-state.js';
import { playTrack, putTrack } from './track-state.js';
import { restoreWindow } from './window-state.js';
import type { MachineState } from './states.js';
import type { SavedTrack } from './track-playback.js';
import type { CloudQueueTarget } from './client.js';
import type { ItemWindowResponse, PlaybackReport } from './wire.js';

/** Bumped when the shape changes; a record of another version is ignored (the player starts idle). */
export const SAVED_PLAYER_VERSION = 1;

/** A loaded queue with a track in it: what a player that is not idle holds. */
export interface SavedPlayback {
  state: Exclude<MachineState, 'IDLE'>;
  queue: LoadedQueue;
  window: ItemWindowResponse;
  track: SavedTrack;
  atEnd: boolean;
  /** Waiting at the window's edge (see Player); absent in records written before it existed. */
  atEdge?: boolean;
  draining: boolean;
  /** Items whose audio the player has (they start without buffering). */
  fetched: string[];
  queueCompletedAsked: string | null;
  lastPollAt: number;
  /** Engine time a paused session is suspended at (pauseTtlSec), when that timer runs. */
  suspendAt: number | null;
  asking: SavedAsking;
}

export interface SavedPlayer {
  version: typeof SAVED_PLAYER_VERSION;
  session: PlaybackSession | null;
  volume: number;
  evictedSessions: string[];
  lastError: PlayerErrorRecord | null;
  playback: SavedPlayback | null;
  /**
   * Reports a load that had started its track at once owed when the player was saved: counted as
   * failed (see `Player.save`), it owes what its failure posts, the held reports and the final of
   * the track it played. The restored player posts them. Absent in records written before.
   */
  reportsOwed?: { target: CloudQueueTarget; report: PlaybackReport }[];
}

/**
 * The record as stored, its window put back from where it was kept apart (`window`, undefined when
 * none was: a record saved before holds its own); null when it is from another version, not a
 * record at all, or a playback without its window.
 */
export function readSavedPlayer(value: unknown, window?: unknown): SavedPlayer | null {
  if (typeof value !== 'object' || value === null) return null;
  const saved = value as Partial<SavedPlayer>;
  if (
    saved.version !== SAVED_PLAYER_VERSION ||
    !Array.isArray(saved.evictedSessions) ||
    typeof saved.volume !== 'number'
  )
    return null;
  const playback = saved.playback;
  if (playback === null || playback === undefined) return saved as SavedPlayer;
  const held = windowOf(playback, window);
  return held ? ({ ...saved, playback: { ...playback, window: held } } as SavedPlayer) : null;
}

/** The window a stored playback holds: its own (saved before migration 018) or the one kept apart. */
function windowOf(playback: Partial<SavedPlayback>, window: unknown): ItemWindowResponse | undefined {
  const held = playback.window ?? window;
  return typeof held === 'object' && held !== null ? (held as ItemWindowResponse) : undefined;
}

/** Whether `value` is a record of this version whose playback's window, kept apart, is not there. */
export function savedWindowLost(value: unknown, window?: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const saved = value as Partial<SavedPlayer>;
  const playback = saved.version === SAVED_PLAYER_VERSION ? saved.playback : null;
  return playback !== null && playback !== undefined && windowOf(playback, window) === undefined;
}

/** A record as it is stored: the window its playback holds is kept apart (see PlayerSavedRepository). */
export type StoredPlayer = Omit<SavedPlayer, 'playback'> & { playback: Omit<SavedPlayback, 'window'> | null };

/** `saved` as it is stored, and the window kept apart from it (null: it holds none). */
export function apartFromWindow(saved: SavedPlayer): { record: StoredPlayer; window: ItemWindowResponse | null } {
  if (!saved.playback) return { record: saved, window: null };
  const { window, ...playback } = saved.playback;
  return { record: { ...saved, playback }, window };
}

/**
 * The record with queues of the console's own cloud queue server moved from where it listened
 * (`from`) to where it listens now (`to`): a restart on `--port 0` gets new ports, and the queue,
 * its items and its access token are all still there. "Own" is any loopback name at that port
 * (`localhost` for `127.0.0.1`): nothing else can have listened there.
 */
export function movedToOwnServer(saved: SavedPlayer, from: string | null, to: string): SavedPlayer {
  if (from === null || from === to) return saved;
  const moved = (target: CloudQueueTarget): CloudQueueTarget => {
    if (!atOwnServer(target.queueBaseUrl, from)) return target;
    const url = new URL(target.queueBaseUrl);
    return { ...target, queueBaseUrl: to + url.pathname + url.search };
  };
  const { playback, reportsOwed } = saved;
  return {
    ...saved,
    playback: playback ? { ...playback, queue: { ...playback.queue, target: moved(playback.queue.target) } } : null,
    ...(reportsOwed ? { reportsOwed: reportsOwed.map((owed) => ({ ...owed, target: moved(owed.target) })) } : {}),
  };
}

function atOwnServer(queueBaseUrl: string, own: string): boolean {
  let url: URL;
  try {
    url = new URL(queueBaseUrl);
  } catch {
    return false;
  }
  const server = new URL(own);
  return url.protocol === server.protocol && url.port === server.port && isLoopbackHostname(url.hostname);
}

/**
 * What a restart brings back (saved.ts). A load still waiting for its answer is left out: it
 * failed. One that had started its track at once is saved as its failure would leave the
 * player (restorePrevious): the queue before, with a pause or suspension made since, and the
 * reports its failure posts, owed.
 */
export function toSaved(p: PlayerCore): SavedPlayer {
  const now = p.deps.clock.now();
  const previous = p.ctx.loading?.previous;
  const settled = previous ?? takeSnapshot(p.ctx);
  const { queue, window, track } = settled;
  const state = previous ? stateBeforeLoad(p.ctx, p.ctx.state) : settled.state;
  // A pending load leaves a paused player paused, its pauseTtl timer armed; paused since the
  // load started its track, pauseTtlSec runs from now, as restorePrevious arms it.
  const pauseTtl = state === 'PAUSED' ? p.timers.get('pauseTtl') : undefined;
  const ttlSec = previous && state === 'PAUSED' && !pauseTtl ? policiesOf(previous).pauseTtlSec : undefined;
  const suspendAt = pauseTtl?.due ?? (ttlSec !== undefined ? now + ttlSec * 1_000 : null);
  const owed = previous ? heldReportsToPost(p) : null;
  const playback: SavedPlayback | null =
    state !== 'IDLE' && queue && window && track
      ? {
          state,
          queue,
          window: window.response,
          track: track.save(now),
          atEnd: settled.atEnd,
          atEdge: settled.atEdge,
          draining: p.ctx.draining,
          fetched: [...p.ctx.fetched],
          queueCompletedAsked: p.ctx.queueCompletedAsked,
          lastPollAt: p.ctx.lastPollAt,
          suspendAt,
          // With a track started at once: what the queue before was asking when the load began.
          asking: settled.asking,
        }
      : null;
  return {
    version: SAVED_PLAYER_VERSION,
    session: p.ctx.session,
    volume: p.ctx.volume,
    evictedSessions: [...p.ctx.evictedSessions],
    lastError: p.ctx.lastError,
    playback,
    ...(owed ? { reportsOwed: [...owed.held, ...(owed.final ? [owed.final] : [])] } : {}),
  };
}

/**
 * Takes up what `save` kept, on a fresh player: the same session and queue, the playhead where
 * it was, and the timers of that state armed again (a playing track ends and reports on time,
 * the version poll keeps its rhythm, a paused session is still suspended at its pauseTtlSec).
 * Requests it was waiting on are asked again. No transition is recorded: the player is where it
 * was, it did not move.
 */
export function fromSaved(p: PlayerCore, saved: SavedPlayer): void {
  restoreSession(p.ctx, saved.session, saved.evictedSessions);
  p.restoreMachine({ volume: saved.volume, lastError: saved.lastError });
  // Its failure would have posted them (a load pending at the save counts as failed).
  for (const owed of saved.reportsOwed ?? []) postReport(p, owed, { ofQueueBefore: true });
  const playback = saved.playback;
  if (playback) {
    const now = p.deps.clock.now();
    // A record written before intervals were clamped may hold shorter ones: clamped as at adoption.
    setQueue(p.ctx, { ...playback.queue, reports: reportIntervalsOf(playback.queue.reports) });
    restoreWindow(p.ctx, playback);
    // Records written before the edge wait existed have none.
    putTrack(p.ctx, TrackPlayback.restore(playback.track), { atEnd: playback.atEnd, atEdge: playback.atEdge ?? false });
    p.restoreMachine({ state: playback.state });
    // Asked before the state's own timers: a background window asked again goes first.
    askAgain(p, playback.asking);
    if (p.ctx.state === 'PLAYING') {
      playTrack(p.ctx, now);
      startTrackTimers(p);
      askForNextWindowIfNear(p);
    } else if (p.ctx.state === 'BUFFERING') {
      bufferAgain(p);
    } else if (p.ctx.state === 'PAUSED' && playback.suspendAt !== null) {
      p.setTimer('pauseTtl', Math.max(0, playback.suspendAt - now), () => p.dispatch({ type: 'pauseTtlExpired' }));
    }
    rescheduleVersionPoll(p);
  }
  p.changed();
}
