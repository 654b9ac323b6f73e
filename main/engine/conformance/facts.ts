/**
 * What a run has learnt of the server so far, for the cases that build on earlier ones: the first
 * window (where the queue starts), the windows the cases before the play fetched (for the checks
 * that hold of all windows: items, queueVersion), the walk through the queue, which track each id
 * named over every window, and a tally of every answer (for timing and Retry-After). What grows
 * with the play's length is tallied, not kept (docs/contract/console.md §8, the 300 MB bound).
 */
import { isObject } from '../api/is-object.js';
import { ItemSightings } from './gone-items.js';
import { Heard } from './heard.js';
import { TrackIdentities } from './identities.js';
import { is2xx, type Answer } from './server.js';
import { newTrail, type Trail } from './trail.js';
import { idOf, type WindowView } from './window-view.js';

export { idOf, type WindowView } from './window-view.js';

/**
 * Windows kept in `windows`: the walk stops at 20,000 items (about 200 windows) and the cases
 * before it fetch a few dozen, so only a play's windows are past it, and no case lists those.
 */
export const KEPT_WINDOWS = 1_000;

/** The walk through the queue (walk.ts walks it): what the cases after it build on. */
export interface Walk {
  /** Ids in queue order, from the first item the walk knows (the queue's first once `reachedBeginning`). */
  ids: string[];
  /** Where the window without itemId started: its index in `ids` (0 when it started at the first item). */
  startedAt: number;
  /** Every answer of the walk, in order. */
  answers: Answer[];
  /** Windows that moved the walk on (the confirmations and probes not counted). */
  windows: number;
  /** Whether it saw the queue's first item. */
  reachedBeginning: boolean;
  /** Whether it saw the queue's last item. */
  reachedEnd: boolean;
  /** Why it stopped before an end, when it did; said, never failed. */
  stopped: string | null;
  /** Windows that could not be walked, and flags that were wrong: the walk's case fails on them. */
  problems: string[];
  /** What a reasonable reading may differ on (an empty queue's flags). */
  warnings: string[];
  /** Ids not unique or not where an earlier window had them: `item-window.ids` fails on them. */
  idProblems: string[];
  /** Ids an overlapping window showed again, each checked to be in its place. */
  idsSeenAgain: number;
  /** The queueVersion of the walk's first window: what its ends hold for. */
  queueVersion?: unknown;
  /**
   * Once a window of the walk was over the byte cap: how many it asked beyond its anchor, how many
   * windows were over (each asked again smaller), and how many the walk asks beyond each anchor now.
   */
  overCap?: { asked: number; times: number; size: number };
  /** The queue changed while it was first walked (its queueVersion moved): walked again from the start. */
  walkedAgain?: { from: string; to: string };
}

export interface SuiteFacts {
  /** The answer to GET /itemWindow without itemId, when it was a window (`item-window.first`). */
  firstWindow: WindowView | null;
  /** The windows fetched, in order, the first KEPT_WINDOWS of them. */
  windows: WindowView[];
  /** The walk through the queue (`item-window.queue-ends`), once it ran. */
  walk: Walk | null;
  /** Which track each id named, over every window fetched. */
  identities: TrackIdentities;
  /** The newest queueVersion each id was seen in: a 404 for it after an edit is right (`gone-items.ts`). */
  sightings: ItemSightings;
  /** Every answer of the run, tallied. */
  heard: Heard;
  /**
   * Whether the context's policies (`limitedSkips`, `notifyUserIntent`) have the player wait for
   * the server before a skip: then a skip's window refused 403 is the server's right (platform.md
   * §4.3). Set by `context`.
   */
  skipsAsked: boolean;
  /**
   * Whether the context's policies let a listener skip back (`canSkipBack`, true unless false):
   * with false, a window may hold nothing before its item, and the walk does not go back past one
   * (docs/conformance.md, the walk). Set by `context`.
   */
  canSkipBack: boolean;
  /** The context's `contextVersion` (a string), which reports carry from v2.1 on. Set by `context`. */
  contextVersion?: string;
  /** What the rest of the run heard, held to what the walk and the version case settled (`trail.ts`). */
  trail: Trail;
}

export function newFacts(): SuiteFacts {
  return {
    firstWindow: null,
    windows: [],
    walk: null,
    identities: new TrackIdentities(),
    sightings: new ItemSightings(),
    heard: new Heard(),
    skipsAsked: false,
    canSkipBack: true,
    trail: newTrail(),
  };
}

/** The window an answer holds, or why it holds none. */
export function windowOf(answer: Answer): WindowView | { problem: string } {
  if (answer.exchange.endpoint !== 'itemWindow') return { problem: 'not an itemWindow answer' };
  if (!is2xx(answer)) return { problem: `the answer is ${answer.status ?? 'missing'}` };
  const body = answer.json;
  if (answer.json === undefined) return { problem: answer.text.trim() ? 'the body is not JSON' : 'the body is empty' };
  if (!isObject(body)) return { problem: 'the body is not a JSON object' };
  if (!Array.isArray(body.items)) return { problem: 'the body has no items array' };
  const ids = body.items.map(idOf);
  return {
    answer,
    items: body.items,
    ids: ids.every((id) => id !== null) ? (ids as string[]) : null,
    includesBeginningOfQueue: body.includesBeginningOfQueue,
    includesEndOfQueue: body.includesEndOfQueue,
    queueVersion: body.queueVersion,
  };
}

export function isWindow(view: WindowView | { problem: string }): view is WindowView {
  return 'answer' in view;
}

/** `item-1 … item-11 (11 items)`, `no items`. */
export function spanOf(ids: readonly string[]): string {
  if (ids.length === 0) return 'no items';
  if (ids.length === 1) return `1 item (${ids[0]})`;
  if (ids.length <= 3) return `${ids.length} items (${ids.join(', ')})`;
  return `${ids.length} items (${ids[0]} … ${ids.at(-1)})`;
}
