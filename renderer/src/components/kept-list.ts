/**
 * A listbox of kept things, newest first (the checks' runs, the fleets): its class, the list and
 * its rows as both areas draw them (each area's own stylesheet lays out what is where in a row),
 * and its keys. One Tab stop, on the chosen row (the first when none is); ↑/↓, Home and End choose
 * another and move the focus with it; Enter and Space choose what is chosen already, and scroll
 * nothing.
 */
import type { KeyboardEvent } from 'react';
import { rovingTarget } from './roving';
import styles from './KeptList.module.css';

export const keptListClass: string = styles.list!;

type Kept = readonly { id: string }[];

/** The list's keydown: `choose` is called with the row a key moves to, and the focus follows it. */
export function onKeptListKeyDown(
  event: KeyboardEvent<HTMLUListElement>,
  items: Kept,
  chosenId: string | null,
  choose: (id: string) => void,
): void {
  const chosen = items.findIndex((item) => item.id === chosenId);
  const target = rovingTarget(event.key, Math.max(0, chosen), items.length);
  if (target === null && event.key !== 'Enter' && event.key !== ' ') return;
  event.preventDefault();
  if (target === null) return;
  choose(items[target]!.id);
  event.currentTarget.querySelectorAll<HTMLElement>('[role="option"]')[target]?.focus();
}

/** Row `index`'s tabIndex: 0 for the one Tab stop, -1 for the others. */
export function keptTabIndex(items: Kept, chosenId: string | null, index: number): 0 | -1 {
  return index ===
    Math.max(
      0,
      items.findIndex((item) => item.id === chosenId),
    )
    ? 0
    : -1;
}
