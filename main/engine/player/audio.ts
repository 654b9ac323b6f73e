/**
 * How the simulated player fetches audio. It streams each track with 30 s of audio ahead of the
 * playhead, so a track's audio is all fetched 30 s before it ends (at once for tracks of 30 s or
 * less), and then the next track starts downloading. Short tracks are therefore fetched whole
 * as soon as the one before them is: what docs/contract/platform.md §4.3 means by "fetched all audio of the current
 * window" (queueCompleted) and by `load+queueCompleted` ("for example a very short track").
 */
import type { QueueWindow } from './windows.js';
import { DEFAULT_TRACK_MILLIS, type Track } from './wire.js';

export const AUDIO_AHEAD_MS = 30_000;
/** Time from the start of a fetch to enough audio to play. */
export const BUFFERING_MS = 500;

export const durationOf = (track: Track): number => track.durationMillis ?? DEFAULT_TRACK_MILLIS;

/** A track whose whole audio arrives with its first chunk. */
export const fetchedAtOnce = (track: Track): boolean => durationOf(track) <= AUDIO_AHEAD_MS;

/** Playhead position at which the track's audio is all fetched. */
export const fetchCompletesAt = (track: Track): number => Math.max(0, durationOf(track) - AUDIO_AHEAD_MS);

/**
 * Items whose audio is fully fetched once `itemId` is: the item itself, then every following item
 * of the window that arrives whole, up to the first that streams.
 */
export function fetchedThrough(window: QueueWindow, itemId: string): string[] {
  const fetched = [itemId];
  for (let next = window.after(itemId); next && fetchedAtOnce(next.track); next = window.after(next.id))
    fetched.push(next.id);
  return fetched;
}

/**
 * Whether all audio of the window is fetched once `itemId`'s is: the window holds the item, and
 * every item after it arrives whole (docs/contract/platform.md §4.3 queueCompleted).
 */
export function fetchedToEnd(window: QueueWindow, itemId: string): boolean {
  const last = window.items.at(-1)?.id;
  return last !== undefined && window.has(itemId) && fetchedThrough(window, itemId).includes(last);
}
