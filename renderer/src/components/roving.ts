/**
 * Arrow keys for a row of tabs or radio buttons drawn as buttons (the WAI-ARIA tabs and radio
 * group patterns): the row is one Tab stop, on its chosen item (`rovingTabIndex`), and ←/→ (↑/↓),
 * Home and End move to another item and choose it, as native radios do.
 */
import type { KeyboardEvent } from 'react';

const ITEMS = '[role="tab"], [role="radio"]';
const NEXT = new Set(['ArrowRight', 'ArrowDown']);
const PREVIOUS = new Set(['ArrowLeft', 'ArrowUp']);

/** The item a key moves to from `index` among `count` items, or null for a key that does not move. */
export function rovingTarget(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  if (NEXT.has(key)) return (index + 1) % count;
  if (PREVIOUS.has(key)) return (index - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/** The row's keydown: put on the element with role tablist or radiogroup. */
export function onRovingKeyDown(event: KeyboardEvent<HTMLElement>): void {
  const items = [...event.currentTarget.querySelectorAll<HTMLButtonElement>(ITEMS)].filter((item) => !item.disabled);
  const index = items.indexOf(document.activeElement as HTMLButtonElement);
  const target = index === -1 ? null : rovingTarget(event.key, index, items.length);
  if (target === null) return;
  event.preventDefault();
  items[target]!.focus();
  items[target]!.click();
}

/** The Tab stop of the row: its chosen item, or its first when none is chosen. */
export function rovingTabIndex(chosen: boolean, first: boolean, anyChosen: boolean): 0 | -1 {
  return chosen || (!anyChosen && first) ? 0 : -1;
}
