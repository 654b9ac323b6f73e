/**
 * The window's size and place (docs/contract/platform.md §4.3): it holds the item asked for and
 * never more than was asked for on either side of it, zero sizes included, and it is centred on
 * that item, with the queue's own neighbours before and after it. Fewer items than asked is the
 * server's right (a window is the server's to cut, never to none of the item asked for), so it is
 * said, never failed.
 */
import { Findings, skip, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { idOf, isWindow, spanOf, windowOf, type SuiteFacts, type WindowView } from '../facts.js';
import { PREVIOUS_WINDOW_SIZE, UPCOMING_WINDOW_SIZE } from '../../player/windows.js';
import { GoneItems, goneSaid } from '../gone-items.js';
import { RULE } from '../rules.js';
import { is2xx, outcomeOf, requestLine, type Answer, type WindowAsk } from '../server.js';
import { otherVersion } from '../version-answer.js';

/** The ids the window without itemId gave, in queue order (from wherever it started); null when it gave none to use. */
export function knownIds(facts: SuiteFacts): string[] | null {
  const ids = facts.firstWindow?.ids;
  return ids && ids.length > 0 ? ids : null;
}

/** An item in the middle of the first window, so that a window around it has neighbours on both sides. */
export function middleOf(ids: readonly string[]): number {
  return Math.floor((ids.length - 1) / 2);
}

const SIZES: readonly [previous: number, upcoming: number][] = [
  [0, 0],
  [1, 1],
  [0, 3],
  [3, 0],
  // The player's own sizes (docs/contract/console.md §5): a server one item over at these only was
  // caught by play-through alone (audit).
  [PREVIOUS_WINDOW_SIZE, UPCOMING_WINDOW_SIZE],
];
const LARGEST_ASKED = Math.max(...SIZES.flat());

export const windowSizeLimits: ConformanceCase = {
  id: 'item-window.size-limits',
  rule: RULE.requests,
  title: 'A window never holds more than asked on either side, zero sizes included',
  needs: ['item-window.first'],
  async run({ server, facts }: CaseContext): Promise<Verdict> {
    const ids = knownIds(facts);
    if (!ids) return skip(noItems(facts));
    const anchor = ids[middleOf(ids)]!;
    const findings = new Findings();
    // The windows fetched before this case (the walk's, asked 100 at a time, among them): a
    // server one item over from 20 on passed with only the sizes below judged (audit).
    const earlier = facts.windows.flatMap((view) => {
      const ask = askOf(view.answer.exchange.url);
      return ask ? [{ ask, view }] : [];
    });
    let fewer = 0;
    let notJudged = 0;
    const asks: WindowAsk[] = [
      { reason: 'load', previousWindowSize: 0, upcomingWindowSize: 0 },
      ...SIZES.map(([previous, upcoming]): WindowAsk => ({
        reason: 'refresh',
        itemId: anchor,
        previousWindowSize: previous,
        upcomingWindowSize: upcoming,
      })),
      // Near the start, where a server that keeps its windows full would move the previous slots it cannot fill after the item.
      ...(ids.length >= 2
        ? [{ reason: 'refresh', itemId: ids[1]!, previousWindowSize: 3, upcomingWindowSize: 0 } satisfies WindowAsk]
        : []),
    ];
    const gone = new GoneItems(server, facts.sightings);
    for (const ask of asks) {
      const answer = await server.itemWindow(ask);
      const asked = requestLine(answer);
      const view = windowOf(answer);
      const edited = await gone.after(answer, ask.itemId);
      if (edited) {
        findings.warn(goneSaid(edited));
        notJudged++;
        continue;
      }
      if (!isWindow(view)) {
        findings.fail(
          `${asked}: sizes of zero or more are valid (docs/contract/platform.md §8), expected 200 with a window, got ${is2xx(answer) ? view.problem : outcomeOf(answer)}`,
        );
        continue;
      }
      for (const problem of sizeProblems(ask, view)) findings.fail(`${asked}: ${problem}`);
      const missing = missingItemProblem(ask, view);
      if (missing) findings.fail(`${asked}: ${missing}`);
      const most = ask.previousWindowSize + ask.upcomingWindowSize + 1;
      if (view.items.length < most && view.includesBeginningOfQueue !== true && view.includesEndOfQueue !== true)
        fewer++;
    }
    // After the case's own: those name the sizes a server gets wrong most plainly (zero ones).
    for (const { ask, view } of earlier)
      for (const problem of sizeProblems(ask, view)) findings.fail(`${requestLine(view.answer)}: ${problem}`);
    if (fewer) findings.note(`${fewer} of them held fewer than asked (a server may)`);
    const largest = Math.max(
      LARGEST_ASKED,
      ...earlier.map(({ ask }) => Math.max(ask.previousWindowSize, ask.upcomingWindowSize)),
    );
    return findings.verdict(
      `${asks.length - notJudged} windows asked with sizes from 0 to ${LARGEST_ASKED}, and the ${earlier.length} fetched before with sizes up to ${largest}: each held the item asked for, none more than asked on either side`,
    );
  },
};

export const windowCentred: ConformanceCase = {
  id: 'item-window.centred',
  rule: RULE.requests,
  title: 'A window asked for with itemId holds that item between its neighbours in the queue',
  needs: ['item-window.first'],
  async run({ server, facts }: CaseContext): Promise<Verdict> {
    const ids = knownIds(facts);
    if (!ids) return skip(noItems(facts));
    const findings = new Findings();
    const gone = new GoneItems(server, facts.sightings);
    const places = [...new Set([middleOf(ids), 0, ids.length - 1])];
    const judged: string[] = [];
    for (const index of places) {
      const itemId = ids[index]!;
      const answer = await server.itemWindow({
        reason: 'skipToItem',
        itemId,
        previousWindowSize: 2,
        upcomingWindowSize: 2,
      });
      const edited = await gone.after(answer, itemId);
      if (edited) {
        findings.warn(goneSaid(edited));
        continue;
      }
      judged.push(itemId);
      const problem = placeProblem(answer, ids, index, facts.firstWindow);
      if (problem) findings.fail(`${requestLine(answer)}: ${problem}`);
    }
    return findings.verdict(
      `${judged.length} window${judged.length === 1 ? '' : 's'} asked around ${judged.join(', ') || 'no item'}: each held that item between the neighbours the queue has`,
    );
  },
};

/**
 * Whether the window around `ids[index]` holds it with the queue's neighbours, as far as the first
 * window showed them. What comes before that window's first item is known only when it said it
 * starts the queue: a first window may start anywhere (docs/contract/console.md §8). A window of
 * another version than the first's is not held to its neighbours: an edit since may have moved
 * them (audit: an item prepended between the two failed a valid server).
 */
function placeProblem(answer: Answer, ids: readonly string[], index: number, first: WindowView | null): string | null {
  const startsQueue = first?.includesBeginningOfQueue === true;
  const itemId = ids[index]!;
  const view = windowOf(answer);
  if (!isWindow(view))
    return `expected 200 with a window around ${itemId}, got ${is2xx(answer) ? view.problem : outcomeOf(answer)}`;
  const missing = missingItemProblem({ itemId }, view);
  if (missing) return missing;
  const held = view.items.map(idOf);
  const at = held.indexOf(itemId);
  if (otherVersion(first?.queueVersion, view.queueVersion)) return null;
  for (let d = 1; at - d >= 0; d++) {
    const got = held[at - d] ?? '(no id)';
    if (index - d < 0) {
      if (!startsQueue) break;
      return `it holds ${got} before ${ids[0]}, the queue's first item (as GET /itemWindow without itemId gave it)`;
    }
    if (got !== ids[index - d])
      return `item ${d} before ${itemId} is ${got}, where the queue has ${ids[index - d]} (as GET /itemWindow without itemId gave it)`;
  }
  for (let d = 1; at + d < held.length && index + d < ids.length; d++) {
    const got = held[at + d] ?? '(no id)';
    if (got !== ids[index + d])
      return `item ${d} after ${itemId} is ${got}, where the queue has ${ids[index + d]} (as GET /itemWindow without itemId gave it)`;
  }
  return null;
}

/**
 * A window asked for with itemId that does not hold it, said; null when it does or none was asked.
 * The player cannot play on from such a window (its `itemWindow.requested-item` rule, an error):
 * an item the server does not know is a 404 (docs/contract/platform.md §5.3), and a server may cut
 * a window to fewer items, never to none of the one asked for. Judged by every case that asks a
 * window around an item: a server wrong for one reason or one size only was passed (audit).
 */
export function missingItemProblem(
  ask: Pick<WindowAsk, 'itemId'>,
  view: Pick<WindowView, 'items'>,
  sayHeld = true,
): string | null {
  if (ask.itemId === undefined) return null;
  const held = view.items.map(idOf);
  if (held.includes(ask.itemId)) return null;
  const what = sayHeld ? ` (it holds ${spanOf(held.map((id) => id ?? '?'))})` : '';
  return `the window does not hold ${ask.itemId}, the itemId asked for${what}`;
}

/**
 * What a window holds beyond what was asked: more than `previousWindowSize` before the item asked
 * for, or more than `upcomingWindowSize` after it; asked without `itemId` (a load, where the server
 * picks the item), or not holding the item asked for (`missingItemProblem` says so), more than both
 * and the item in all.
 */
export function sizeProblems(ask: WindowAsk, view: Pick<WindowView, 'items'>): string[] {
  const most = ask.previousWindowSize + ask.upcomingWindowSize + 1;
  const at = ask.itemId === undefined ? -1 : view.items.map(idOf).indexOf(ask.itemId);
  if (at === -1)
    return view.items.length > most
      ? [
          `${items(view.items.length)}, more than the ${most} asked for in all (${ask.previousWindowSize} before, the item, ${ask.upcomingWindowSize} after)`,
        ]
      : [];
  const problems: string[] = [];
  const before = at;
  const after = view.items.length - 1 - at;
  if (before > ask.previousWindowSize)
    problems.push(`${items(before)} before ${ask.itemId}, more than previousWindowSize=${ask.previousWindowSize}`);
  if (after > ask.upcomingWindowSize)
    problems.push(`${items(after)} after ${ask.itemId}, more than upcomingWindowSize=${ask.upcomingWindowSize}`);
  return problems;
}

/** What a window was asked for, read from its request's URL: null unless both sizes are whole numbers of zero or more. */
export function askOf(url: string): WindowAsk | null {
  if (!URL.canParse(url)) return null;
  const query = new URL(url).searchParams;
  const [previous, upcoming] = [query.get('previousWindowSize'), query.get('upcomingWindowSize')];
  if (previous === null || upcoming === null || !/^\d{1,6}$/.test(previous) || !/^\d{1,6}$/.test(upcoming)) return null;
  const itemId = query.get('itemId');
  return {
    reason: (query.get('reason') ?? 'refresh') as WindowAsk['reason'],
    ...(itemId === null ? {} : { itemId }),
    previousWindowSize: Number(previous),
    upcomingWindowSize: Number(upcoming),
  };
}

export function noItems(facts: SuiteFacts): string {
  const first = facts.firstWindow;
  if (first && first.items.length === 0) return 'the queue is empty: no item to ask a window around';
  return 'the window without itemId gave no item ids to ask around (see item-window.items)';
}

const items = (n: number): string => `${n} item${n === 1 ? '' : 's'}`;
