/**
 * Where a bundle's scenario begins when its span began before the console started. A restart on
 * the same data dir keeps the traffic log and the players' transitions, but the journal begins
 * anew: nothing before the start can be replayed. The scenario begins at the start, from the state
 * the console started in (its fault rules, queues and clock are those the journal began with);
 * what a player did before it is not checked, and a note names the player.
 *
 * Cutting every player from the span's start instead, a session wholly after a restart was never
 * checked whenever the log still held an entry from before it, and its bundle passed with its
 * skip deleted (audit V10).
 */

/** A recorded transition: what this needs of it. */
export interface StartTransition {
  playerId: string;
  at: number;
  cause: string;
}

export interface SinceStart {
  /** Where the scenario begins: `from`, or the console's start when that came later (never after `to`). */
  from: number;
  notes: string[];
}

export function sinceConsoleStart(
  transitions: readonly StartTransition[],
  from: number,
  to: number,
  startedAt: number,
): SinceStart {
  if (from >= startedAt) return { from, notes: [] };
  // Timer rows are never checked (they follow from the others): only the rest go unchecked here.
  const before = new Map<string, number>();
  for (const t of transitions)
    if (t.at >= from && t.at < startedAt && t.at <= to && t.cause !== 'timer')
      before.set(t.playerId, (before.get(t.playerId) ?? 0) + 1);
  const start = new Date(startedAt).toISOString();
  const notes = [...before].map(
    ([playerId, count]) =>
      `${playerId}: its ${count} transition${count === 1 ? '' : 's'} of the span before ${start} are not checked: the console started at ${start} (engine time), within the span, and the calls before that were not journaled (the scenario begins there)`,
  );
  return { from: Math.min(startedAt, to), notes };
}
