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
import type { LoadedQueue, PlaybackSession, PlayerErrorRecord } from './player.js';
import type { MachineState } from './states.js';
import type { SkipToItemParams, WindowPurpose } from './events.js';
import type { SavedTrack } from './track-playback.js';
import type { CloudQueueTarget } from './client.js';
import type { ItemWindowResponse, PlaybackReport, Reason } from './wire.js';

/** Bumped when the shape changes; a record of another version is ignored (the player starts idle). */
export const SAVED_PLAYER_VERSION = 1;

/** Requests of the loaded queue that had not answered (nor run out of retries). */
export interface SavedAsking {
  /** A background itemWindow: the next window, queueCompleted, a refresh. */
  window?: { reason: Reason; purpose: WindowPurpose };
  /** A background itemWindow waiting for the one in flight (a refresh command, queueCompleted…). */
  windowAfter?: { reason: Reason; purpose: WindowPurpose };
  /** A skipToItem the control API already answered. */
  skipToItem?: SkipToItemParams;
  versionPoll?: true;
  context?: true;
  /** An explicit resume of a suspended session. */
  resume?: true;
}

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

/** The record as stored, or null when it is from another version or not a record at all. */
export function readSavedPlayer(value: unknown): SavedPlayer | null {
  if (typeof value !== 'object' || value === null) return null;
  const saved = value as Partial<SavedPlayer>;
  return saved.version === SAVED_PLAYER_VERSION && Array.isArray(saved.evictedSessions) && typeof saved.volume === 'number' ? (saved as SavedPlayer) : null;
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
