/**
 * What the palette shows for the typed text: the items whose visible words match it, best first,
 * still grouped by area. match-sorter ranks in tiers a user can predict (the whole label, its
 * start, a word's start, anywhere in it, its initials, its letters in order), so typing a label
 * as it reads ("Go to Faults") puts that item first; the item's keywords and dimmed detail match
 * too but never outrank a label.
 */
import { matchSorter, rankings, type KeyOption } from 'match-sorter';

export interface RankedItem {
  label: string;
  detail?: string;
  keywords?: readonly string[];
  /** Made from the typed text itself (an entry id): always shown, first. */
  always?: boolean;
}

export interface RankedGroup<I extends RankedItem> {
  heading: string;
  items: I[];
}

interface Entry<I> {
  item: I;
  heading: string;
}

const KEYS: KeyOption<Entry<RankedItem>>[] = [
  // The label, letters in order at the least ("gfaults" finds "Go to Faults").
  { key: (e) => e.item.label, threshold: rankings.MATCHES },
  // The group's name, so "queues import" or "faults" finds that area's commands.
  { key: (e) => `${e.heading} ${e.item.label}`, threshold: rankings.CONTAINS, maxRanking: rankings.CONTAINS },
  // Other words for it and the detail beside it: whole words only, below any label match.
  {
    key: (e) => [...(e.item.keywords ?? []), ...(e.item.detail ? [e.item.detail] : [])],
    threshold: rankings.CONTAINS,
    maxRanking: rankings.CONTAINS,
  },
];

/**
 * The groups with only the items that match, each group's items best first and the groups in
 * the order of their best item; with nothing typed, everything in its own order.
 */
export function rankGroups<I extends RankedItem>(groups: readonly RankedGroup<I>[], query: string): RankedGroup<I>[] {
  const text = query.trim();
  if (!text) return groups.filter((g) => g.items.length > 0);
  const entries = groups.flatMap((g) => g.items.map((item) => ({ item, heading: g.heading })));
  const ranked = [
    ...entries.filter((e) => e.item.always),
    ...matchSorter(
      entries.filter((e) => !e.item.always),
      text,
      // Ties keep the palette's own order (areas in sidebar order, then the rest).
      { keys: KEYS as KeyOption<Entry<I>>[], baseSort: (a, b) => a.index - b.index },
    ),
  ];
  const byHeading = new Map<string, I[]>();
  for (const { item, heading } of ranked) byHeading.set(heading, [...(byHeading.get(heading) ?? []), item]);
  return [...byHeading].map(([heading, items]) => ({ heading, items }));
}
