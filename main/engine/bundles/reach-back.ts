/**
 * How far back a bundle's span reaches before its first entry. A replay starts with its players
 * idle, so a player busy at the first entry (or loading then) must be loaded again: the span
 * reaches back to the call that loaded it, so that the calls it then got (a skip, a seek) meet
 * the state they met.
 *
 * The call, not the moment the player left idle: the control API journals a load as it begins,
 * and the player leaves idle only when the load's window answers, engine time later (its
 * `GET /context` and `GET /itemWindow` between). Cut at the answer, a filtered, limited or
 * cleared-log export left the load out, and its replay's skip found nothing loaded (audit V1).
 */
import type { JournalEntry } from '../journal/types.js';

/** A recorded transition: what reaching back needs of it. */
export interface ReachBackTransition {
  playerId: string;
  at: number;
  from: string;
  to: string;
  /** The row of the transition table (`load-begins`, `load-failed`, …). */
  transition: string;
}

/**
 * The earliest time at or before `first` from which every player the span moves (a transition
 * between `first` and `to`) can be replayed: when the call began that loaded each one busy at
 * `first` (or loading then). A player the span leaves alone plays no part in it, however busy (a
 * shared console's other players would stretch a two-entry export back over hours); one whose
 * record does not reach that far is left as it is (its checks are cut, as before).
 *
 * `transitions` oldest first; `calls` the journal's, pending ones included, in any order.
 */
export function reachBack(
  transitions: readonly ReachBackTransition[],
  calls: readonly JournalEntry[],
  first: number,
  to: number,
): number {
  const moved = new Set(transitions.filter((t) => t.at >= first && t.at <= to).map((t) => t.playerId));
  // Per player, when the load it stands on began: the one that made it leave idle, or one in flight at `first`.
  const loadedAt = new Map<string, number>();
  const loading = new Map<string, number>();
  for (const t of transitions) {
    if (t.at >= first || !moved.has(t.playerId)) continue;
    if (t.from === 'IDLE' && t.to === 'IDLE') {
      if (t.transition === 'load-begins') loading.set(t.playerId, t.at);
      else if (t.transition === 'load-failed') loading.delete(t.playerId);
    } else if (t.from === 'IDLE') {
      loadedAt.set(t.playerId, loading.get(t.playerId) ?? t.at);
      loading.delete(t.playerId);
    } else if (t.to === 'IDLE') {
      loadedAt.delete(t.playerId);
      loading.delete(t.playerId);
    }
  }
  // An idle player whose load was still in flight at `first` meets it in the span too.
  for (const [playerId, at] of loading) if (!loadedAt.has(playerId)) loadedAt.set(playerId, at);
  let from = first;
  for (const at of loadedAt.values()) from = Math.min(from, loadCallBegan(calls, at));
  return from;
}

/**
 * When the load the player began at `at` was called: the last `loadCloudQueue` journaled at or
 * before it (the journal stamps a call before its handler tells the player). None (a console
 * started since, a journal that dropped it): `at` itself.
 */
function loadCallBegan(calls: readonly JournalEntry[], at: number): number {
  let began = -Infinity;
  for (const call of calls)
    if (call.kind === 'control' && call.at <= at && isLoadCall(call.path)) began = Math.max(began, call.at);
  return began === -Infinity ? at : began;
}

/** Whether a control call's path is a `loadCloudQueue`. */
export const isLoadCall = (path: string) => path.split('?')[0]!.endsWith('/loadCloudQueue');
