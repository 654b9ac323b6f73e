/**
 * Which players sit on which rows: from each player's activity, the item it is on and the items of
 * the window it last fetched, each player in a colour of its own.
 */
import type { QueueActivityView } from '@engine-api/queue-types';

export interface PlayerMark {
  key: string;
  label: string;
  color: string;
}

export type RowMarks = Map<string, { current: PlayerMark[]; windows: PlayerMark[] }>;

/** The players' colours are tokens (styles.css), each readable as text on the list in both schemes. */
const COLORS = [
  'var(--player-1)',
  'var(--player-2)',
  'var(--player-3)',
  'var(--player-4)',
  'var(--player-5)',
  'var(--player-6)',
];

export function playerLabel(player: { playerId: string | null; playerName: string | null }): string {
  return player.playerName ?? player.playerId ?? 'no X-Player-Id';
}

export function playerMarks(activity: QueueActivityView | undefined): { marks: RowMarks; colors: Map<string, string> } {
  const marks: RowMarks = new Map();
  const colors = new Map<string, string>();
  const entry = (itemId: string) => {
    let found = marks.get(itemId);
    if (!found) marks.set(itemId, (found = { current: [], windows: [] }));
    return found;
  };
  const players = [...(activity?.players ?? [])].sort((a, b) => (a.playerId ?? '').localeCompare(b.playerId ?? ''));
  players.forEach((player, i) => {
    const key = player.playerId ?? '';
    const mark = { key, label: playerLabel(player), color: COLORS[i % COLORS.length]! };
    colors.set(key, mark.color);
    for (const itemId of player.itemWindow?.window?.itemIds ?? []) entry(itemId).windows.push(mark);
    if (player.currentItemId) entry(player.currentItemId).current.push(mark);
  });
  return { marks, colors };
}
