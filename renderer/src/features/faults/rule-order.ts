/**
 * The matching order of the rules (the first rule that matches a request fails it): where a rule
 * goes when moved up, down, or dropped on another, as the index `faults.move` takes.
 */

/** The index a rule at `index` moves to, one step `up` or down among `count`; null at an end. */
export function stepIndex(index: number, direction: 'up' | 'down', count: number): number | null {
  const to = direction === 'up' ? index - 1 : index + 1;
  return to < 0 || to >= count ? null : to;
}

/**
 * A rule dragged from `from` and dropped on the row at `onto` takes that row's place: the rows
 * between shift by one toward where it came from, as a list reordered by hand does.
 */
export function dropIndex(from: number, onto: number): number | null {
  return from === onto ? null : onto;
}

/** The rule's place in words, for a screen reader after a move ("2 of 3"). */
export function placeText(index: number, count: number): string {
  return `${index + 1} of ${count}`;
}
