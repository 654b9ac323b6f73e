/**
 * The session part's owner: the playback session, the queue it loaded, and the sessions evicted
 * lately. Only this module writes them; the rest of the player asks it to.
 */
import type { LoadedQueue, PlaybackSession, PlayerContext, SessionPart } from './context.js';

const own = (ctx: PlayerContext): SessionPart => ctx as unknown as SessionPart;

/** How many evicted session ids are remembered for ERROR_SESSION_EVICTED. */
const EVICTED_KEPT = 50;

export function openSession(ctx: PlayerContext, session: PlaybackSession): void {
  own(ctx).session = session;
}

/** The session is gone: its id is remembered, so its commands are told so. */
export function forgetSession(ctx: PlayerContext): void {
  const part = own(ctx);
  if (!part.session) return;
  part.evictedSessions.push(part.session.id);
  if (part.evictedSessions.length > EVICTED_KEPT) part.evictedSessions.shift();
  part.session = null;
}

/** What a restart brings back of the session (saved.ts). */
export function restoreSession(ctx: PlayerContext, session: PlaybackSession | null, evicted: readonly string[]): void {
  const part = own(ctx);
  part.session = session;
  part.evictedSessions.push(...evicted);
}

/** The queue playing now (null: none). */
export function setQueue(ctx: PlayerContext, queue: LoadedQueue | null): void {
  own(ctx).queue = queue;
}

/** What a context (GET /context, or a report's answer) changes of the queue playing: a new record. */
export function updateQueue(
  ctx: PlayerContext,
  change: Partial<Pick<LoadedQueue, 'policies' | 'reports' | 'contextVersion' | 'container'>>,
): void {
  const part = own(ctx);
  if (part.queue) part.queue = { ...part.queue, ...change };
}
