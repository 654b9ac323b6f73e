/**
 * The walk through a queue, window by window, both ways from wherever the window asked without
 * `itemId` starts (docs/contract/console.md §8: a server may centre it on its current item). Back
 * first, each window asked before the first item the walk knows, until a window says
 * `includesBeginningOfQueue`; then on, each window asked after the last item it knows, until one
 * says `includesEndOfQueue`. Each window overlaps what the walk knows by two items (ids must be
 * where they were) and adds the items beyond (ids must be new). Once the walk knows where the
 * queue starts and ends, every window's flags are judged against where it stands: true exactly
 * when it holds the first or the last item (docs/contract/console.md §4). A few windows more reach
 * to each end, one item short and just far enough, so that a flag off by one shows even on a
 * queue one window holds.
 *
 * A queue of a million items is not walked to its ends: the walk stops after WALK_MAX_ITEMS items
 * or WALK_BUDGET_MS, says so, and that is no failure.
 */
import { idOf, isWindow, spanOf, windowOf, type Walk, type WindowView } from './facts.js';
import { retained, retainedView } from './retained.js';
import { is2xx, outcomeOf, requestLine, type Answer, type CheckedServer } from './server.js';
import { goneWithEdit } from './gone-items.js';
import { mayGoBackFrom, nothingAfter, nothingBefore } from './stuck-window.js';
import { otherVersion } from './version-answer.js';

/**
 * Items asked beyond each window's anchor: the fewer windows, the sooner a long queue is walked,
 * but every answer is read under the run's byte cap (1 MB by default), and a valid server answers
 * all it is asked: 1,000 items of 2 KB metadata each (signed media and image URLs) failed a right
 * server with its size. 100 items keep a window under the cap up to 10 KB an item.
 */
export const WALK_UPCOMING = 100;
/** Items asked on the known side of the anchor: the overlap that shows whether ids stay where they were. */
export const WALK_OVERLAP = 2;
export const WALK_MAX_ITEMS = 20_000;
export const WALK_BUDGET_MS = 10_000;

/** A window the walk placed: where its first item stands, relative to the first window's first item. */
interface Placed {
  view: WindowView;
  from: number;
}

interface Step {
  server: CheckedServer;
  walk: Walk;
  /** Each known id's place, relative to the first window's first item (negative before it). */
  positions: Map<string, number>;
  /** The relative place of `walk.ids[0]`. */
  first: number;
  placed: Placed[];
  started: number;
  now: () => number;
  /** The context's canSkipBack: with false, a window may hold nothing before its item. */
  canSkipBack: boolean;
}

const nth = (n: number): string => n.toLocaleString('en-US');

/** Items the walk asks beyond each anchor: WALK_UPCOMING, less once a window of that many was over the byte cap. */
const sizeOf = (step: Step): number => step.walk.overCap?.size ?? WALK_UPCOMING;

/**
 * A window of the walk carried another queueVersion than its first: the queue changed while it was
 * walked, and the ends found so far may be another version's (audit: an item removed mid-walk
 * failed a valid server's flags against ends it no longer had).
 */
class QueueChanged {
  constructor(
    readonly from: string,
    readonly to: string,
    readonly answer: Answer,
  ) {}
}

/** Walks the queue of `server` both ways from where its first window starts; `now` gives wall ms for the budget. */
export async function walkQueue(
  server: CheckedServer,
  now: () => number,
  { canSkipBack = true }: { canSkipBack?: boolean } = {},
): Promise<Walk> {
  // Begun again once when the queue changed under it; changed again, nothing is judged.
  const changes: QueueChanged[] = [];
  for (;;) {
    try {
      const walk = await walkOnce(server, now, canSkipBack);
      if (changes[0]) walk.walkedAgain = { from: changes[0].from, to: changes[0].to };
      return walk;
    } catch (error) {
      if (!(error instanceof QueueChanged)) throw error;
      changes.push(error);
      if (changes.length === 2) return changedTwice(changes);
    }
  }
}

function changedTwice(changes: QueueChanged[]): Walk {
  const said = changes.map(
    (change) =>
      `queueVersion ${JSON.stringify(change.from)} then ${JSON.stringify(change.to)} (${requestLine(change.answer)})`,
  );
  return {
    ...emptyWalk(),
    answers: changes.map((change) => change.answer),
    warnings: [
      `the queue changed while it was walked, and again when it was walked again (${said.join('; ')}): its ends, and so its windows' flags, are not judged. Right if the queue was being edited, wrong if nothing changed it (item-window.queue-version says more)`,
    ],
  };
}

function emptyWalk(): Walk {
  return {
    ids: [],
    startedAt: 0,
    answers: [],
    windows: 0,
    reachedBeginning: false,
    reachedEnd: false,
    stopped: null,
    problems: [],
    warnings: [],
    idProblems: [],
    idsSeenAgain: 0,
  };
}

async function walkOnce(server: CheckedServer, now: () => number, canSkipBack: boolean): Promise<Walk> {
  const walk = emptyWalk();
  const step: Step = {
    server,
    walk,
    positions: new Map(),
    first: 0,
    placed: [],
    started: now(),
    now,
    canSkipBack,
  };

  const first = await fetchWindow(step, { itemId: undefined, previous: 0, upcoming: sizeOf(step) });
  if (!first) return walk;
  walk.queueVersion = first.queueVersion;
  walk.windows++;
  if (first.items.length === 0) {
    walk.reachedBeginning = walk.reachedEnd = true;
    if (first.includesBeginningOfQueue !== true || first.includesEndOfQueue !== true) {
      walk.warnings.push(
        `${requestLine(first.answer)}: an empty window with includesBeginningOfQueue ${String(first.includesBeginningOfQueue)} and includesEndOfQueue ${String(first.includesEndOfQueue)}; an empty queue's window holds its (no) first and last item, and a player reads false as more items to come`,
      );
    }
    return walk;
  }
  if (!append(step, first, first.items.map(idOf))) return judgeAll(step);
  step.placed.push({ view: retainedView(first), from: 0 });

  if (first.includesBeginningOfQueue === true) await confirmStart(step);
  else if (!(await walkBack(step))) {
    // Stopped going back within its reach, with nothing wrong: an end the first window showed is
    // still confirmed, so the run's other windows are judged by it (audit: a long centred queue
    // skipped item-window.ends-everywhere though its first window held the end).
    if (walk.stopped && !walk.problems.length && first.includesEndOfQueue === true) await confirmEnd(step);
    return judgeAll(step);
  }
  if (!walk.stopped && (first.includesEndOfQueue === true || (await walkOn(step)))) await confirmEnd(step);
  judgeAll(step);
  await probeEdges(step);
  return walk;
}

/** Back from the first item known until a window says it holds the queue's first; false when the walk cannot go on. */
async function walkBack(step: Step): Promise<boolean> {
  const { walk } = step;
  for (;;) {
    if (outOfBudget(step, 'going back', 'the queue starts earlier')) return false;
    const anchor = walk.ids[0]!;
    const view = await fetchWindow(step, { itemId: anchor, previous: sizeOf(step), upcoming: WALK_OVERLAP });
    if (!view) return false;
    walk.windows++;
    const held = view.items.map(idOf);
    const at = held.indexOf(anchor);
    if (at === -1) return notHeld(step, view, anchor, held);
    if (!checkPlace(step, view, held, at, step.first, 'after')) return false;
    if (!prepend(step, view, held.slice(0, at))) return false;
    step.placed.push({ view: retainedView(view), from: step.first });
    if (at === 0) {
      if (view.includesBeginningOfQueue === true) {
        walk.reachedBeginning = true;
        return true;
      }
      // Fewer than asked is the server's right; none at all while the queue goes on back is not:
      // either the flag is wrong or the items are withheld, and a listener could not skip back.
      // Where no listener may skip back from the item (canSkipBack false), a window may start at it.
      if (!mayGoBackFrom(view.items[0], step.canSkipBack)) {
        walk.stopped = `then stopped going back at ${anchor}: its window holds nothing before it, and canSkipBack false lets no listener go back from it (where the queue starts is not judged)`;
        return false;
      }
      walk.problems.push(`${requestLine(view.answer)}: ${nothingBefore(anchor, view.includesBeginningOfQueue)}`);
      walk.stopped = `stopped going back at ${anchor}`;
      return false;
    }
    if (view.includesBeginningOfQueue === true) {
      await confirmStart(step);
      return true;
    }
  }
}

/** On from the last item known until a window says it holds the queue's last; true when one said so. */
async function walkOn(step: Step): Promise<boolean> {
  const { walk } = step;
  for (;;) {
    if (outOfBudget(step, 'going on', 'the queue goes on')) return false;
    const anchor = walk.ids.at(-1)!;
    const anchorAt = step.first + walk.ids.length - 1;
    const view = await fetchWindow(step, { itemId: anchor, previous: WALK_OVERLAP, upcoming: sizeOf(step) });
    if (!view) return false;
    walk.windows++;
    const held = view.items.map(idOf);
    const at = held.indexOf(anchor);
    if (at === -1) return notHeld(step, view, anchor, held);
    if (!checkPlace(step, view, held, at, anchorAt, 'before')) return false;
    const before = walk.ids.length;
    if (!append(step, view, held.slice(at + 1))) return false;
    step.placed.push({ view: retainedView(view), from: anchorAt - at });
    if (walk.ids.length === before) {
      if (view.includesEndOfQueue === true) return true;
      // Fewer than asked is the server's right; none at all while the queue goes on is not: either
      // the flag is wrong or the items are withheld, and a player could not go on either way.
      walk.problems.push(`${requestLine(view.answer)}: ${nothingAfter(anchor, view.includesEndOfQueue)}`);
      walk.stopped = `stopped at ${anchor}, item ${nth(walk.ids.length)}`;
      return false;
    }
    if (view.includesEndOfQueue === true) return true;
  }
}

function outOfBudget(step: Step, going: string, beyond: string): boolean {
  const { walk } = step;
  if (walk.ids.length < WALK_MAX_ITEMS && step.now() - step.started <= WALK_BUDGET_MS) return false;
  walk.stopped = `then stopped ${going}, as the walk does after ${nth(WALK_MAX_ITEMS)} items or ${WALK_BUDGET_MS / 1000} s; ${beyond}`;
  return true;
}

function notHeld(step: Step, view: WindowView, anchor: string, held: readonly (string | null)[]): false {
  step.walk.problems.push(
    `${requestLine(view.answer)}: the window does not hold ${anchor}, the itemId asked for, so the walk cannot go on (it holds ${spanOf(held.map((id) => id ?? '?'))})`,
  );
  idsGone(step, view, anchor, held);
  return false;
}

/**
 * A window asked for an id an earlier window gave, that holds items but none of the ids earlier
 * windows gave: the ids did not stay where they were (a server that names its items anew in every
 * answer). item-window.ids must say so, not pass for want of an id seen twice (audit).
 */
function idsGone(step: Step, view: WindowView, anchor: string, held: readonly (string | null)[]): void {
  if (held.length === 0 || held.some((id) => id !== null && step.positions.has(id))) return;
  step.walk.idProblems.push(
    `${requestLine(view.answer)} holds ${spanOf(held.map((id) => id ?? '?'))}, none of the ids earlier windows gave, though ${anchor} was asked for: ids must stay where they are while nothing changes`,
  );
}

/**
 * A window the walk can use, or null after saying why it cannot. A window over the byte cap is
 * the walk's own asking: the server answered all it was asked, and a valid one with 10 KB of
 * metadata an item passes 1 MB at 103 items (audit). The walk then asks a quarter as many from
 * there on, down to one item, and only a window of one item over the cap is the server's.
 */
async function fetchWindow(
  step: Step,
  ask: { itemId: string | undefined; previous: number; upcoming: number },
): Promise<WindowView | null> {
  let asked = await askWindow(step.server, ask, step.walk.answers);
  for (;;) {
    const { previous, upcoming } = ask;
    const overCap = asked.answer.exchange.violations.some((v) => v.rule === 'itemWindow.size');
    if (!overCap || Math.max(previous, upcoming) <= 1) break;
    const size = Math.max(1, Math.floor(Math.min(sizeOf(step), Math.max(previous, upcoming)) / 4));
    step.walk.overCap ??= { asked: Math.max(previous, upcoming), times: 0, size };
    step.walk.overCap.times++;
    step.walk.overCap.size = size;
    ask = { ...ask, previous: Math.min(previous, size), upcoming: Math.min(upcoming, size) };
    asked = await askWindow(step.server, ask, step.walk.answers);
  }
  if (asked.view) {
    const [from, to] = [step.walk.queueVersion, asked.view.queueVersion];
    if (otherVersion(from, to)) throw new QueueChanged(from as string, to as string, asked.answer);
    return asked.view;
  }
  // An item of the walk answered 404 after an edit lost it: the queue changed, as above.
  const gone = await goneWithEdit(step.server, asked.answer, ask.itemId, step.walk.queueVersion);
  if (gone) {
    step.walk.answers.push(retained(gone.polled), retained(gone.polledAgain));
    throw new QueueChanged(gone.seenIn, gone.now, asked.answer);
  }
  step.walk.problems.push(
    `${requestLine(asked.answer)}: expected a window (any size of zero or more is valid; a server may answer fewer items than asked), got ${asked.got}`,
  );
  return null;
}

/**
 * One window, asked as a player would (`load` without an itemId, `refresh` around one), its answer
 * kept in `answers`: the window, or the answer and what came instead, in words.
 */
export async function askWindow(
  server: CheckedServer,
  { itemId, previous, upcoming }: { itemId: string | undefined; previous: number; upcoming: number },
  answers: Answer[],
): Promise<{ answer: Answer; view: WindowView } | { answer: Answer; view: null; got: string }> {
  const answer = await server.itemWindow({
    reason: itemId === undefined ? 'load' : 'refresh',
    ...(itemId === undefined ? {} : { itemId }),
    previousWindowSize: previous,
    upcomingWindowSize: upcoming,
  });
  answers.push(retained(answer));
  const view = windowOf(answer);
  if (isWindow(view)) return { answer, view };
  return { answer, view: null, got: is2xx(answer) ? `${answer.status}, but ${view.problem}` : outcomeOf(answer) };
}

/** The place of an id relative to the first window, as an item number once the beginning is known. */
function label(step: Step, at: number): string {
  const id = step.walk.ids[at - step.first] ?? '?';
  return step.walk.reachedBeginning ? `item ${nth(at - step.first + 1)} (${id})` : id;
}

/** Whether `id` is new; says where it stood before when not (and stops the walk). */
function isNew(step: Step, view: WindowView, id: string | null, at: number): id is string {
  const { walk } = step;
  if (id === null) {
    walk.stopped = `stopped: ${requestLine(view.answer)} holds an item without an id (see item-window.items)`;
    return false;
  }
  const seen = step.positions.get(id);
  if (seen === undefined) return true;
  walk.idProblems.push(
    `${id} appears twice in the queue, ${nth(Math.abs(at - seen))} item${Math.abs(at - seen) === 1 ? '' : 's'} apart (${requestLine(view.answer)}): ids must be unique in a queue`,
  );
  walk.stopped = `stopped at ${id}: ids are not unique there, so the walk cannot tell where it stands`;
  return false;
}

/** Adds ids after the last one known; false (and stops) on one without an id or one seen before. */
function append(step: Step, view: WindowView, ids: readonly (string | null)[]): boolean {
  for (const id of ids) {
    const at = step.first + step.walk.ids.length;
    if (!isNew(step, view, id, at)) return false;
    step.positions.set(id, at);
    step.walk.ids.push(id);
  }
  return true;
}

/** Adds ids before the first one known, in queue order; false (and stops) as `append`. */
function prepend(step: Step, view: WindowView, ids: readonly (string | null)[]): boolean {
  const added: string[] = [];
  for (let k = ids.length - 1; k >= 0; k--) {
    const id = ids[k]!;
    const at = step.first - added.length - 1;
    if (!isNew(step, view, id, at)) break;
    step.positions.set(id, at);
    added.push(id);
  }
  step.first -= added.length;
  step.walk.ids.unshift(...added.reverse());
  return added.length === ids.length;
}

/**
 * The items on `side` of the anchor (at `at` in the window, `anchorAt` in the queue) must be those
 * the walk knows there; items beyond what it knows are not judged here.
 */
function checkPlace(
  step: Step,
  view: WindowView,
  held: readonly (string | null)[],
  at: number,
  anchorAt: number,
  side: 'before' | 'after' | 'both',
): boolean {
  const { walk } = step;
  const sides = side === 'both' ? [-1, 1] : [side === 'before' ? -1 : 1];
  for (const sign of sides) {
    for (let d = 1; at + sign * d >= 0 && at + sign * d < held.length; d++) {
      const place = anchorAt + sign * d;
      const expected = walk.ids[place - step.first];
      const got = held[at + sign * d] ?? '(no id)';
      if (expected === undefined) {
        if (sign < 0 && walk.reachedBeginning) {
          walk.problems.push(`${requestLine(view.answer)}: holds ${got} before ${walk.ids[0]}, the queue's first item`);
          return false;
        }
        if (sign > 0 && walk.reachedEnd) {
          walk.problems.push(
            `${requestLine(view.answer)}: holds ${got} after ${walk.ids.at(-1)}, the queue's last item`,
          );
          return false;
        }
        break;
      }
      walk.idsSeenAgain++;
      if (got !== expected) {
        walk.idProblems.push(
          `${label(step, place)} was ${expected} in an earlier window and is ${got} in ${requestLine(view.answer)}: ids must stay where they are while nothing changes`,
        );
        return false;
      }
    }
  }
  return true;
}

/** A window said it held the first item: a window around that item must hold nothing before it. */
async function confirmStart(step: Step): Promise<void> {
  const { walk } = step;
  const first = walk.ids[0]!;
  const view = await fetchWindow(step, { itemId: first, previous: 1, upcoming: 0 });
  if (!view) return;
  const held = view.items.map(idOf);
  const at = held.indexOf(first);
  if (at === -1) {
    walk.problems.push(`${requestLine(view.answer)}: the window does not hold ${first}, the itemId asked for`);
    return idsGone(step, view, first, held);
  }
  if (at > 0) {
    walk.problems.push(
      `the window that started at ${first} said includesBeginningOfQueue true, but ${held[at - 1] ?? 'an item'} comes before ${first} (${requestLine(view.answer)})`,
    );
    walk.stopped = `stopped going back at ${first}`;
    return;
  }
  walk.reachedBeginning = true;
  step.placed.push({ view: retainedView(view), from: step.first });
}

/** A window said it held the last item: a window around that item must hold nothing after it. */
async function confirmEnd(step: Step): Promise<void> {
  const { walk } = step;
  const last = walk.ids.at(-1)!;
  const view = await fetchWindow(step, { itemId: last, previous: 0, upcoming: 1 });
  if (!view) return;
  const held = view.items.map(idOf);
  const at = held.indexOf(last);
  if (at === -1) {
    walk.problems.push(`${requestLine(view.answer)}: the window does not hold ${last}, the itemId asked for`);
    return idsGone(step, view, last, held);
  }
  if (at < held.length - 1) {
    walk.problems.push(
      `the window that ended at ${last} said includesEndOfQueue true, but ${held[at + 1] ?? 'an item'} follows ${last} (${requestLine(view.answer)})`,
    );
    return;
  }
  walk.reachedEnd = true;
  step.placed.push({ view: retainedView(view), from: step.first + walk.ids.length - 1 - at });
}

function judgeAll(step: Step): Walk {
  step.walk.startedAt = -step.first;
  for (const { view, from } of step.placed) judgeFlags(step, view, from);
  return step.walk;
}

/**
 * Judges the flags of a window whose first item stands at `from`, where the walk knows: a window
 * that starts after the first item known (or stops before the last) must say false; one that
 * holds the first (last) item once the walk has seen that end must say true.
 */
function judgeFlags(step: Step, view: WindowView, from: number): void {
  const { walk } = step;
  const asked = requestLine(view.answer);
  for (const flag of ['includesBeginningOfQueue', 'includesEndOfQueue'] as const) {
    if (typeof view[flag] !== 'boolean')
      walk.problems.push(`${asked}: ${flag} must be true or false, got ${JSON.stringify(view[flag]) ?? 'nothing'}`);
  }
  if (view.items.length === 0) return;
  const firstId = walk.ids[0]!;
  const holdsFirst = from > step.first ? false : walk.reachedBeginning ? true : undefined;
  if (holdsFirst !== undefined && view.includesBeginningOfQueue !== holdsFirst) {
    walk.problems.push(
      holdsFirst
        ? `${asked}: includesBeginningOfQueue ${String(view.includesBeginningOfQueue)}, but the window holds ${firstId}, the queue's first item`
        : walk.reachedBeginning
          ? `${asked}: includesBeginningOfQueue true, but the window starts at ${label(step, from)}, not at the queue's first item ${firstId}`
          : `${asked}: includesBeginningOfQueue true, but the window starts at ${label(step, from)}, and ${label(step, from - 1)} comes before it`,
    );
  }
  // The window's whole length: a kept window holds its first MAX_KEPT_ITEMS (retained.ts).
  const through = from + view.items.length + (view.itemsLeftOut ?? 0) - 1;
  const last = step.first + walk.ids.length - 1;
  const holdsLast = through < last ? false : walk.reachedEnd ? true : undefined;
  if (holdsLast !== undefined && view.includesEndOfQueue !== holdsLast) {
    walk.problems.push(
      holdsLast
        ? `${asked}: includesEndOfQueue ${String(view.includesEndOfQueue)}, but the window holds ${walk.ids.at(-1)}, the queue's last item`
        : `${asked}: includesEndOfQueue true, but the window stops at ${walk.ids[through - step.first]}, before the queue's last item ${walk.reachedEnd ? walk.ids.at(-1) : 'the walk saw'}`,
    );
  }
}

/**
 * The flags of a window fetched outside the walk (another reason, other sizes), judged by where
 * the walk found the queue's ends: true exactly when the window holds that end's item. An end the
 * walk did not reach is not judged.
 */
export function flagProblems(view: WindowView, walk: Walk, { types = true }: { types?: boolean } = {}): string[] {
  const problems: string[] = [];
  for (const flag of ['includesBeginningOfQueue', 'includesEndOfQueue'] as const)
    if (types && typeof view[flag] !== 'boolean')
      problems.push(`${flag} must be true or false, got ${JSON.stringify(view[flag]) ?? 'nothing'}`);
  if (view.items.length === 0 || walk.ids.length === 0) return problems;
  const held = new Set(view.items.map(idOf));
  const ends = [
    ['includesBeginningOfQueue', walk.reachedBeginning, walk.ids[0]!, 'first'],
    ['includesEndOfQueue', walk.reachedEnd, walk.ids.at(-1)!, 'last'],
  ] as const;
  for (const [flag, reached, id, which] of ends) {
    if (!reached || typeof view[flag] !== 'boolean') continue;
    const holds = held.has(id);
    if (view[flag] !== holds)
      problems.push(
        holds
          ? `${flag} false, but the window holds ${id}, the queue's ${which} item`
          : `${flag} true, but the window does not hold ${id}, the queue's ${which} item`,
      );
  }
  return problems;
}

/**
 * Windows reaching exactly back to the first item and one short of it, and exactly on to the last
 * item and one short of it, where the walk saw that end: a flag off by one shows here.
 */
async function probeEdges(step: Step): Promise<void> {
  const { walk } = step;
  const count = walk.ids.length;
  if (count < 2 || walk.problems.length || walk.idProblems.length) return;
  const reach = Math.min(count - 1, 3);
  const probes: { index: number; previous: number; upcoming: number }[] = [];
  // The queue's ends asked with nothing on their own side too: a flag worked out from the side
  // asked for (`includesEndOfQueue` false whenever upcomingWindowSize is 0) was never asked about
  // at the end it names, and passed (outside audit of 7 December 2026).
  if (walk.reachedBeginning)
    probes.push(
      { index: reach, previous: reach, upcoming: 0 },
      { index: reach, previous: reach - 1, upcoming: 0 },
      { index: 0, previous: 0, upcoming: reach },
    );
  if (walk.reachedEnd)
    probes.push(
      { index: count - 1 - reach, previous: 0, upcoming: reach },
      { index: count - 1 - reach, previous: 0, upcoming: reach - 1 },
      { index: count - 1, previous: reach, upcoming: 0 },
    );
  for (const { index, previous, upcoming } of probes) {
    const anchor = walk.ids[index]!;
    const view = await fetchWindow(step, { itemId: anchor, previous, upcoming });
    if (!view) return;
    const held = view.items.map(idOf);
    const at = held.indexOf(anchor);
    if (at === -1) {
      walk.problems.push(`${requestLine(view.answer)}: the window does not hold ${anchor}, the itemId asked for`);
      idsGone(step, view, anchor, held);
      continue;
    }
    if (!checkPlace(step, view, held, at, step.first + index, 'both')) continue;
    judgeFlags(step, view, step.first + index - at);
  }
}
