/**
 * A window that holds nothing after the item it was asked around, yet says the queue goes on (or
 * nothing before it, yet says the queue goes on back), leaves a player nowhere to go: fewer items
 * than asked is the server's right, none at all while the queue goes on is not. The rule needs no
 * knowledge of where the queue ends, so it holds for every window of every version: the walk
 * applies it to its own, and the run's trail the side after to the others but
 * `item-window.reasons`' (audit: after one valid edit moved the version, windows with wrong end
 * flags passed, since the walk's ends no longer applied).
 */
import type { WindowView } from './window-view.js';

/** What is wrong, said after the request's line. */
export const nothingAfter = (anchor: string, flag: unknown) =>
  `nothing after ${anchor}, yet includesEndOfQueue ${JSON.stringify(flag) ?? 'missing'}: if ${anchor} is the queue's last item the flag must be true, and if it is not the window must hold what follows it`;

export const nothingBefore = (anchor: string, flag: unknown) =>
  `nothing before ${anchor}, yet includesBeginningOfQueue ${JSON.stringify(flag) ?? 'missing'}: if ${anchor} is the queue's first item the flag must be true, and if it is not the window must hold what comes before it`;

/**
 * What is wrong, by this rule, with a window asked around an `itemId` with an upcomingWindowSize
 * above zero; [] when nothing. The side before the item is the walk's and the play-through's (a
 * listener that skips back), the only judges of it.
 */
export function stuckWindow(view: WindowView): string[] {
  const { ids } = view;
  if (ids === null || ids.length === 0 || !URL.canParse(view.answer.exchange.url)) return [];
  const query = new URL(view.answer.exchange.url).searchParams;
  const anchor = query.get('itemId');
  if (anchor === null || ids.at(-1) !== anchor || view.includesEndOfQueue === true) return [];
  const upcoming = Number(query.get('upcomingWindowSize'));
  return Number.isInteger(upcoming) && upcoming > 0 ? [nothingAfter(anchor, view.includesEndOfQueue)] : [];
}
