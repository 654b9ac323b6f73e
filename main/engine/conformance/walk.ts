/**
 * The walk through a queue, window by window, from its first item on: each window is asked around
 * the last item the walk knows, with two items before it, so that every window overlaps the one
 * before (ids must be where they were) and adds the items after it (ids must be new). Each
 * window's `includesBeginningOfQueue` and `includesEndOfQueue` are judged against where the walk
 * knows the window stands (docs/contract/console.md §4): true exactly when it holds the first or
 * the last item. A few windows more reach back to the first item and on to the last, one item
 * short and just far enough, so that a flag off by one shows even on a queue one window holds.
 *
 * A queue of a million items is not walked to its end: the walk stops after WALK_MAX_ITEMS items
 * or WALK_BUDGET_MS, says so, and that is no failure (a whole run stays under 30 s).
 */
import { idOf, isWindow, spanOf, windowOf, type WindowView } from './facts.js';
import { is2xx, outcomeOf, requestLine, type Answer, type CheckedServer } from './server.js';

/** Items asked after each window's anchor: the fewer windows, the sooner a long queue is walked. */
export const WALK_UPCOMING = 1_000;
/** Items asked before the anchor: the overlap that shows whether ids stay where they were. */
export const WALK_OVERLAP = 2;
export const WALK_MAX_ITEMS = 20_000;
export const WALK_BUDGET_MS = 10_000;

export interface Walk {
  /** Ids in queue order from the first item, as far as the walk went. */
  ids: string[];
  /** Every answer of the walk, in order. */
  answers: Answer[];
  /** Windows that moved the walk on (the probes not counted). */
  windows: number;
  /** Whether it saw the queue's last item. */
  reachedEnd: boolean;
  /** Why it stopped before the end, when it did; said, never failed. */
  stopped: string | null;
  /** Windows that could not be walked, and flags that were wrong: the walk's case fails on them. */
  problems: string[];
  /** What a reasonable reading may differ on (an empty queue's flags). */
  warnings: string[];
  /** Ids not unique or not where an earlier window had them: `item-window.ids` fails on them. */
  idProblems: string[];
  /** Ids an overlapping window showed again, each checked to be in its place. */
  idsSeenAgain: number;
}

interface Step {
  server: CheckedServer;
  walk: Walk;
  positions: Map<string, number>;
}

/** Walks the queue of `server` from its first item; `now` gives wall ms for the budget. */
export async function walkQueue(server: CheckedServer, now: () => number): Promise<Walk> {
  const started = now();
  const walk: Walk = { ids: [], answers: [], windows: 0, reachedEnd: false, stopped: null, problems: [], warnings: [], idProblems: [], idsSeenAgain: 0 };
  const step: Step = { server, walk, positions: new Map() };

  const first = await fetchWindow(step, { itemId: undefined, previous: 0, upcoming: WALK_UPCOMING });
  if (!first) return walk;
  walk.windows++;
  const firstIds = first.items.map(idOf);
  if (first.items.length === 0) {
    walk.reachedEnd = true;
    if (first.includesBeginningOfQueue !== true || first.includesEndOfQueue !== true) {
      walk.warnings.push(`${requestLine(first.answer)}: an empty window with includesBeginningOfQueue ${String(first.includesBeginningOfQueue)} and includesEndOfQueue ${String(first.includesEndOfQueue)}; an empty queue's window holds its (no) first and last item, and a player reads false as more items to come`);
    }
    return walk;
  }
  if (!addNew(step, first, firstIds, 0)) return walk;
  judgeFlags(step, first, 0, 0);
  let endSaid = first.includesEndOfQueue === true;

  while (!endSaid) {
    if (walk.ids.length >= WALK_MAX_ITEMS || now() - started > WALK_BUDGET_MS) {
      walk.stopped = `then stopped, as the walk does after ${WALK_MAX_ITEMS.toLocaleString('en-US')} items or ${WALK_BUDGET_MS / 1000} s; the queue goes on`;
      break;
    }
    const anchor = walk.ids.at(-1)!;
    const view = await fetchWindow(step, { itemId: anchor, previous: WALK_OVERLAP, upcoming: WALK_UPCOMING });
    if (!view) return walk;
    walk.windows++;
    const held = view.items.map(idOf);
    const at = held.indexOf(anchor);
    if (at === -1) {
      walk.problems.push(`${requestLine(view.answer)}: the window does not hold ${anchor}, the itemId asked for, so the walk cannot go on (it holds ${spanOf(held.map((id) => id ?? '?'))})`);
      return walk;
    }
    const anchorAt = walk.ids.length - 1;
    if (!checkOverlap(step, view, held, at, anchorAt)) return walk;
    const before = walk.ids.length;
    if (!addNew(step, view, held.slice(at + 1), walk.ids.length)) return walk;
    judgeFlags(step, view, at, anchorAt);
    if (walk.ids.length === before) {
      if (view.includesEndOfQueue === true) {
        walk.problems.push(`the window that ended at ${anchor} said includesEndOfQueue false, but ${anchor} is the queue's last item (${requestLine(view.answer)} holds nothing after it and says includesEndOfQueue true)`);
        walk.reachedEnd = true;
      } else {
        // Fewer than asked is the server's right; none at all while the queue goes on is not: either
        // the flag is wrong or the items are withheld, and a player could not go on either way.
        walk.problems.push(`${requestLine(view.answer)}: nothing after ${anchor}, yet includesEndOfQueue false: if ${anchor} is the queue's last item the flag must be true, and if it is not the window must hold what follows it`);
        walk.stopped = `stopped at ${anchor}, item ${walk.ids.length.toLocaleString('en-US')}`;
      }
      break;
    }
    endSaid = view.includesEndOfQueue === true;
  }
  if (endSaid) await confirmEnd(step);
  await probeEdges(step);
  return walk;
}

/** A window the walk can use, or null after saying why it cannot. */
async function fetchWindow(step: Step, { itemId, previous, upcoming }: { itemId: string | undefined; previous: number; upcoming: number }): Promise<WindowView | null> {
  const answer = await step.server.itemWindow({ reason: itemId === undefined ? 'load' : 'refresh', ...(itemId === undefined ? {} : { itemId }), previousWindowSize: previous, upcomingWindowSize: upcoming });
  step.walk.answers.push(answer);
  const view = windowOf(answer);
  if (isWindow(view)) return view;
  const got = is2xx(answer) ? `${answer.status}, but ${view.problem}` : outcomeOf(answer);
  step.walk.problems.push(`${requestLine(answer)}: expected a window (any size of zero or more is valid; a server may answer fewer items than asked), got ${got}`);
  return null;
}

/** Adds the ids new to the walk from position `from` on; false (and stops) on one without an id or one seen before. */
function addNew({ walk, positions }: Step, view: WindowView, ids: readonly (string | null)[], from: number): boolean {
  for (const [k, id] of ids.entries()) {
    const position = from + k;
    if (id === null) {
      walk.stopped = `stopped at item ${(position + 1).toLocaleString('en-US')}: ${requestLine(view.answer)} holds an item without an id there (see item-window.items)`;
      return false;
    }
    const seen = positions.get(id);
    if (seen !== undefined) {
      walk.idProblems.push(`${id} stands at item ${(seen + 1).toLocaleString('en-US')} and again at item ${(position + 1).toLocaleString('en-US')} (${requestLine(view.answer)}): ids must be unique in a queue`);
      walk.stopped = `stopped at item ${(position + 1).toLocaleString('en-US')}: ids are not unique there, so the walk cannot tell where it stands`;
      return false;
    }
    positions.set(id, position);
    walk.ids.push(id);
  }
  return true;
}

/** The items before the anchor must be those an earlier window had there. */
function checkOverlap({ walk }: Step, view: WindowView, held: readonly (string | null)[], at: number, anchorAt: number): boolean {
  for (let d = 1; d <= at; d++) {
    const got = held[at - d] ?? '(no id)';
    const expected = walk.ids[anchorAt - d];
    if (expected === undefined) {
      walk.problems.push(`${requestLine(view.answer)}: holds ${got} before ${walk.ids[0]}, the queue's first item`);
      return false;
    }
    walk.idsSeenAgain++;
    if (got !== expected) {
      walk.idProblems.push(`item ${(anchorAt - d + 1).toLocaleString('en-US')} was ${expected} in an earlier window and is ${got} in ${requestLine(view.answer)}: ids must stay where they are while nothing changes`);
      return false;
    }
  }
  return true;
}

/**
 * Judges the flags of a window whose item `at` stands at position `anchorAt` of the walk. The
 * end flag only where the walk knows: a window stopping before the last item known, or holding
 * the last item once the walk has seen the end.
 */
function judgeFlags({ walk }: Step, view: WindowView, at: number, anchorAt: number): void {
  const asked = requestLine(view.answer);
  for (const flag of ['includesBeginningOfQueue', 'includesEndOfQueue'] as const) {
    if (typeof view[flag] !== 'boolean') walk.problems.push(`${asked}: ${flag} must be true or false, got ${JSON.stringify(view[flag]) ?? 'nothing'}`);
  }
  const firstAt = anchorAt - at;
  const holdsFirst = firstAt === 0;
  if (view.includesBeginningOfQueue !== holdsFirst) {
    walk.problems.push(
      holdsFirst
        ? `${asked}: includesBeginningOfQueue ${String(view.includesBeginningOfQueue)}, but the window holds ${walk.ids[0]}, the queue's first item`
        : `${asked}: includesBeginningOfQueue true, but the window starts at item ${(firstAt + 1).toLocaleString('en-US')} (${walk.ids[firstAt]}), not at the queue's first item ${walk.ids[0]}`,
    );
  }
  const through = anchorAt + (view.items.length - 1 - at);
  const last = walk.ids.length - 1;
  const holdsLast = through < last ? false : walk.reachedEnd ? true : undefined;
  if (holdsLast !== undefined && view.includesEndOfQueue !== holdsLast) {
    walk.problems.push(
      holdsLast
        ? `${asked}: includesEndOfQueue ${String(view.includesEndOfQueue)}, but the window holds ${walk.ids[last]}, the queue's last item`
        : `${asked}: includesEndOfQueue true, but the window stops at ${walk.ids[through]}, before the queue's last item ${walk.reachedEnd ? walk.ids[last] : 'the walk saw'}`,
    );
  }
}

/** A window said it held the last item: a window around that item must hold nothing after it, and say so. */
async function confirmEnd(step: Step): Promise<void> {
  const { walk } = step;
  const last = walk.ids.at(-1)!;
  const view = await fetchWindow(step, { itemId: last, previous: 0, upcoming: 1 });
  if (!view) return;
  const held = view.items.map(idOf);
  const at = held.indexOf(last);
  if (at === -1) {
    walk.problems.push(`${requestLine(view.answer)}: the window does not hold ${last}, the itemId asked for`);
    return;
  }
  const after = held.slice(at + 1);
  if (after.length > 0) {
    walk.problems.push(`the window that ended at ${last} said includesEndOfQueue true, but ${after[0] ?? 'an item'} follows ${last} (${requestLine(view.answer)})`);
    return;
  }
  walk.reachedEnd = true;
  judgeFlags(step, view, at, walk.ids.length - 1);
}

/**
 * Windows reaching exactly back to the first item and one short of it, and (when the walk saw
 * the end) exactly on to the last item and one short of it: a flag off by one shows here.
 */
async function probeEdges(step: Step): Promise<void> {
  const { walk } = step;
  const count = walk.ids.length;
  if (count < 2 || walk.problems.length || walk.idProblems.length) return;
  const back = Math.min(count - 1, 3);
  for (const previous of [back, back - 1]) {
    const view = await fetchWindow(step, { itemId: walk.ids[back], previous, upcoming: 0 });
    if (!view) return;
    const held = view.items.map(idOf);
    const at = held.indexOf(walk.ids[back]!);
    if (!placed(step, view, held, at, back)) continue;
    judgeFlags(step, view, at, back);
  }
  if (!walk.reachedEnd) return;
  const ahead = Math.min(count - 1, 3);
  const from = count - 1 - ahead;
  for (const upcoming of [ahead, ahead - 1]) {
    const view = await fetchWindow(step, { itemId: walk.ids[from], previous: 0, upcoming });
    if (!view) return;
    const held = view.items.map(idOf);
    const at = held.indexOf(walk.ids[from]!);
    if (!placed(step, view, held, at, from)) continue;
    judgeFlags(step, view, at, from);
  }
}

/** A probe's window holds its anchor, with the walk's items before and after it. */
function placed(step: Step, view: WindowView, held: readonly (string | null)[], at: number, anchorAt: number): boolean {
  const { walk } = step;
  if (at === -1) {
    walk.problems.push(`${requestLine(view.answer)}: the window does not hold ${walk.ids[anchorAt]}, the itemId asked for`);
    return false;
  }
  if (!checkOverlap(step, view, held, at, anchorAt)) return false;
  for (let d = 1; at + d < held.length && anchorAt + d < walk.ids.length; d++) {
    walk.idsSeenAgain++;
    if (held[at + d] !== walk.ids[anchorAt + d]) {
      walk.idProblems.push(`item ${(anchorAt + d + 1).toLocaleString('en-US')} was ${walk.ids[anchorAt + d]} in an earlier window and is ${held[at + d] ?? '(no id)'} in ${requestLine(view.answer)}: ids must stay where they are while nothing changes`);
      return false;
    }
  }
  return true;
}
