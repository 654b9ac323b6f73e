/**
 * The track part's owner: the playing track's playback, whether it waits at the end of the queue
 * or at the window's edge, which playbacks have no item id yet, and whether a started-at-once
 * load's first window is still to come. A TrackPlayback is moved (played, paused, seeked, named)
 * only here too.
 */
import type { PlayerContext, TrackPart } from './context.js';
import { TrackPlayback } from './track-playback.js';
import type { QueueItem } from './wire.js';

const own = (ctx: PlayerContext): TrackPart => ctx as unknown as TrackPart;

/**
 * A new playback of `item` from `positionMillis` becomes the track: neither at the end nor at
 * the edge. `unnamed`: it has no item id yet (see `untilFirstWindow`).
 */
export function startPlayback(
  ctx: PlayerContext,
  item: QueueItem,
  positionMillis = 0,
  { unnamed = false }: { unnamed?: boolean } = {},
): TrackPlayback {
  const part = own(ctx);
  part.track = new TrackPlayback(item, positionMillis);
  part.atEnd = false;
  part.atEdge = false;
  if (unnamed) part.unnamedTracks.add(part.track);
  return part.track;
}

/** A playback put back as it was (a failed load's snapshot, a restart), with where it stood. */
export function putTrack(
  ctx: PlayerContext,
  track: TrackPlayback | null,
  at: { atEnd: boolean; atEdge: boolean } = { atEnd: false, atEdge: false },
): void {
  const part = own(ctx);
  part.track = track;
  part.atEnd = at.atEnd;
  part.atEdge = at.atEdge;
}

export function setAtEnd(ctx: PlayerContext, atEnd: boolean): void {
  own(ctx).atEnd = atEnd;
}

export function setAtEdge(ctx: PlayerContext, atEdge: boolean): void {
  own(ctx).atEdge = atEdge;
}

/** The load's answer named them (or they are left): no playback waits for an item id. */
export function nameTracks(ctx: PlayerContext): void {
  own(ctx).unnamedTracks.clear();
}

export function setFirstWindowPending(ctx: PlayerContext, pending: boolean): void {
  own(ctx).firstWindowPending = pending;
}

/** The playing track plays from where its playhead is (a new segment). */
export function playTrack(ctx: PlayerContext, now: number): void {
  ctx.track?.play(now);
}

export function pauseTrack(ctx: PlayerContext, now: number): void {
  ctx.track?.pause(now);
}

export function seekTrack(ctx: PlayerContext, positionMillis: number, now: number): void {
  ctx.track?.seek(positionMillis, now);
}

/** The load's answer names the track it started at once. */
export function identifyTrack(ctx: PlayerContext, item: QueueItem): void {
  ctx.track?.identify(item);
}

/** The server answered a report of `playback` with what the player cannot read: no more updates of it. */
export function stopUpdates(playback: TrackPlayback): void {
  playback.stopUpdates();
}
