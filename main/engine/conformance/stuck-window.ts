/**
 * A window that holds nothing after the item it was asked around, yet says the queue goes on (or
 * nothing before it, yet says the queue goes on back), leaves a player nowhere to go: fewer items
 * than asked is the server's right, none at all while the queue goes on is not. The rule needs no
 * knowledge of where the queue ends, so it holds for every window of every version: the walk
 * applies it to its own, and the run's trail the side after to the others but
 * `item-window.reasons`' (audit: after one valid edit moved the version, windows with wrong end
 * flags passed, since the walk's ends no longer applied).
 */
import { isObject } from '../api/is-object.js';
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
  const asked = askedAround(view, 'upcomingWindowSize');
  if (asked === null || view.ids!.at(-1) !== asked || view.includesEndOfQueue === true) return [];
  return [nothingAfter(asked, view.includesEndOfQueue)];
}

/**
 * The same rule on the side before the item, for the windows of the play-through's player: a
 * window asked around an item with a previousWindowSize above zero that holds nothing before it
 * yet says the queue goes on back (audit: a server whose windows never held an earlier item
 * passed, its player skipping back within the load's window). A message, or null.
 */
export function withheldBefore(view: WindowView): string | null {
  const asked = askedAround(view, 'previousWindowSize');
  if (asked === null || view.ids![0] !== asked || view.includesBeginningOfQueue === true) return null;
  return nothingBefore(asked, view.includesBeginningOfQueue);
}

/**
 * Whether a listener may skip back from `item`: its own `canSkipBack`, over the queue's
 * (platform.md §4.3: an item's policies win while it plays). With false, a window may start at
 * the item: the walk and the play-through both ask.
 */
export function mayGoBackFrom(item: unknown, queueCanSkipBack: boolean): boolean {
  const own = isObject(item) && isObject(item.policies) ? item.policies.canSkipBack : undefined;
  return typeof own === 'boolean' ? own : queueCanSkipBack;
}

/** The itemId a window with ids was asked around, when `size` was asked above zero; null otherwise. */
function askedAround(view: WindowView, size: 'previousWindowSize' | 'upcomingWindowSize'): string | null {
  const { ids } = view;
  if (ids === null || ids.length === 0 || !URL.canParse(view.answer.exchange.url)) return null;
  const query = new URL(view.answer.exchange.url).searchParams;
  const anchor = query.get('itemId');
  const asked = Number(query.get(size));
  return anchor !== null && Number.isInteger(asked) && asked > 0 ? anchor : null;
}
