// Valid servers drawn at random: each of the valid outsiders' freedoms (valid.ts) becomes a
// dimension, and a recipe picks one value of each. Every combination is a server the platform
// accepts (docs/contract/platform.md), so `check` must pass every one: a failed case is a false
// verdict, whatever mix of shapes and manners brought it out.
import fc from 'fast-check';
import { correctBehaviour, tracks, type Behaviour, type QueueItem } from './server';
import { ODD_IDS, validVariant } from './valid';
import { editWindow, wrap, type Variant } from './variant';

export interface Recipe {
  /** Items in the queue, and each track's length. */
  count: number;
  durationMillis: number;
  ids: 'plain' | 'odd';
  sameTrackTwice: boolean;
  noDurations: boolean;
  extraFields: boolean;
  hostileText: boolean;
  /** Where the first window (no itemId) stands, as a share of the queue, and whether it is centred. */
  firstAt: number;
  centred: boolean;
  /** What the server gives at most, whatever is asked (fewer is allowed: platform.md §4.3). */
  maxPrevious: number;
  maxUpcoming: number;
  canSkip: boolean;
  canSkipBack: boolean;
  canSeek: boolean;
  canSkipToItem: boolean;
  limitedSkips: boolean;
  notifyUserIntent: boolean;
  pauseTtlSec: number;
  auth: 'bearer' | 'basic';
  errors: 'json' | 'html';
  reportAnswer: '204' | '200-empty' | '200-context';
  transfer: 'plain' | 'gzip' | 'chunked' | 'close' | 'dropped';
  ignoresReason: boolean;
  signedMedia: boolean;
  base: 'v2.3' | 'v2.0-strict' | 'versionless' | 'double-slash';
  /**
   * Edits of the queue while `check` runs, each moving queueVersion on: after the n-th /version
   * poll or /itemWindow answer the server gave (a listener's app editing the queue).
   */
  edits: Edit[];
  /** The sizes a window has when the request leaves them out. */
  defaultPrevious: number;
  defaultUpcoming: number;
  /** The first /version poll is a 503 with Retry-After: 2. */
  warmup503: boolean;
}

export interface Edit {
  kind: 'append' | 'prepend' | 'remove-first' | 'remove-last' | 'remove-middle' | 'rename-middle' | 'policy';
  after: 'poll' | 'window';
  n: number;
}

const anEdit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom<Edit['kind']>(
    'append',
    'prepend',
    'remove-first',
    'remove-last',
    'remove-middle',
    'rename-middle',
    'policy',
  ),
  after: fc.constantFrom<Edit['after']>('poll', 'window'),
  n: fc.integer({ min: 1, max: 40 }),
});

export const recipes: fc.Arbitrary<Recipe> = fc
  .record({
    count: fc.constantFrom(0, 1, 2, 5, 9, 14, 40),
    durationMillis: fc.integer({ min: 1_000, max: 2_000 }),
    ids: fc.constantFrom<Recipe['ids']>('plain', 'odd'),
    sameTrackTwice: fc.boolean(),
    noDurations: fc.boolean(),
    extraFields: fc.boolean(),
    hostileText: fc.boolean(),
    firstAt: fc.double({ min: 0, max: 1, noNaN: true }),
    centred: fc.boolean(),
    maxPrevious: fc.constantFrom(0, 1, 2, 5, 100),
    maxUpcoming: fc.constantFrom(1, 2, 5, 1_000),
    canSkip: fc.boolean(),
    canSkipBack: fc.boolean(),
    canSeek: fc.boolean(),
    canSkipToItem: fc.boolean(),
    limitedSkips: fc.boolean(),
    notifyUserIntent: fc.boolean(),
    pauseTtlSec: fc.constantFrom(1, 600),
    auth: fc.constantFrom<Recipe['auth']>('bearer', 'basic'),
    errors: fc.constantFrom<Recipe['errors']>('json', 'html'),
    reportAnswer: fc.constantFrom<Recipe['reportAnswer']>('204', '200-empty', '200-context'),
    transfer: fc.constantFrom<Recipe['transfer']>('plain', 'gzip', 'chunked', 'close', 'dropped'),
    ignoresReason: fc.boolean(),
    signedMedia: fc.boolean(),
    base: fc.constantFrom<Recipe['base']>('v2.3', 'v2.0-strict', 'versionless', 'double-slash'),
    edits: fc.array(anEdit, { maxLength: 2 }),
    defaultPrevious: fc.constantFrom(0, 2, 5),
    defaultUpcoming: fc.constantFrom(1, 10, 50),
    warmup503: fc.boolean(),
  })
  // A server that never shows an item before the one asked for must not let a listener go back:
  // its windows would withhold the items a skip back needs (conformance.md, the play-through).
  .map((r) => (r.maxPrevious === 0 ? { ...r, canSkipBack: false } : r));

/** A one-line account of the recipe, for the table printed on a false verdict. */
export function recipeStory(r: Recipe): string {
  const on = (Object.entries(r) as [string, unknown][]).filter(([, value]) => value === true).map(([name]) => name);
  return [
    `${r.count} × ${r.durationMillis} ms (${r.ids} ids)`,
    `first at ${Math.round(r.firstAt * 100)}%${r.centred ? ' centred' : ''}`,
    `caps ${r.maxPrevious}/${r.maxUpcoming}`,
    `${r.auth}, ${r.errors} errors, reports ${r.reportAnswer}, ${r.transfer}, base ${r.base}`,
    `pauseTtlSec ${r.pauseTtlSec}`,
    `defaults ${r.defaultPrevious}/${r.defaultUpcoming}`,
    ...r.edits.map((edit) => `${edit.kind} after ${edit.after} ${edit.n}`),
    ...on,
  ].join('; ');
}

function items(r: Recipe): QueueItem[] {
  let list = tracks(r.count, r.durationMillis);
  if (r.ids === 'odd') list = list.map((item, i) => ({ ...item, id: ODD_IDS[i] ?? `odd ${i + 1}/é` }));
  if (r.sameTrackTwice && list.length >= 6)
    list[5] = { ...structuredClone(list[2] as QueueItem), id: (list[5] as QueueItem).id };
  if (r.extraFields) return list.map((item) => ({ ...item, explicit: false, x_vendor: { rank: 3 } }));
  return list;
}

/** The recipe as a server: the correct one, each freedom applied in turn. */
export function composed(r: Recipe, name: string): Variant {
  return {
    name,
    expect: 'pass',
    rule: 'console.md §8',
    story: recipeStory(r),
    baseUrl: r.base === 'v2.3' ? undefined : validVariant(BASES[r.base]).baseUrl,
    build(token) {
      return build(r, token);
    },
  };
}

/**
 * What a defect needs of the server around it to show at all: a defect in skip reports needs a
 * listener who may skip, one in withheld earlier items a listener who may go back, one more
 * previous item than asked a server that gives previous items. Without it the server is valid.
 */
const DEFECT_NEEDS: Record<string, (r: Recipe) => boolean> = {
  'breaks-after-skip-report': (r) => r.canSkip,
  'current-and-next-only': (r) => r.canSkipBack,
  'size-extra-previous': (r) => r.maxPrevious > 0,
  // Read as "the default", a zero shows only where the default gives previous items.
  'size-zero-previous-ignored': (r) => r.maxPrevious > 0 && r.defaultPrevious > 0,
  // A v2.0 server is not asked the v2.2 joined reason, as players do not send it one (audit Y7).
  'reason-combined-refused': (r) => r.base !== 'v2.0-strict',
};

/** Whether `mutant`'s defect shows on the recipe's server (DEFECT_NEEDS). */
export function defectShows(mutant: Variant, r: Recipe): boolean {
  return DEFECT_NEEDS[mutant.name]?.(r) ?? true;
}

/**
 * Valid servers for a defect to sit on: no edits (an edit rightly excuses what it explains, a
 * version that moved, an item gone) and at least nine items (the mutants' defects sit on the
 * items of a queue of eight). A server that never shows an item before the one asked for starts
 * its first window at the queue's start: started anywhere else, the items before are shown to
 * nobody, a defect in them included.
 */
export const defectRecipes: fc.Arbitrary<Recipe> = recipes
  .filter((r) => r.count >= 9)
  .map((r) => ({ ...r, edits: [], firstAt: r.maxPrevious === 0 ? 0 : r.firstAt }));

/**
 * The recipe's valid server with one defect on top (a mutant's change, mutants.ts): whatever the
 * freedoms around it, `check` must not pass it.
 */
export function withDefect(r: Recipe, mutant: Variant, name: string): Variant {
  return {
    ...composed(r, name),
    expect: mutant.expect,
    story: `${mutant.name} on ${recipeStory(r)}`,
    build(token) {
      const b = build(r, token);
      mutant.change?.(b);
      return b;
    },
  };
}

function build(r: Recipe, token: string): Behaviour {
  const b = correctBehaviour(token);
  // The freedoms the fixed valid servers already write (valid.ts), laid on this one as they are.
  const lay = (name: string) => validVariant(name).change(b);
  b.items = items(r);
  if (r.noDurations) lay('no-durations');
  if (r.hostileText) lay('hostile-text');
  b.firstIndex = Math.min(Math.floor(r.firstAt * r.count), Math.max(r.count - 1, 0));
  b.firstPrevious = r.centred;
  b.maxPrevious = r.maxPrevious;
  b.maxUpcoming = r.maxUpcoming;
  b.defaultPrevious = r.defaultPrevious;
  b.defaultUpcoming = r.defaultUpcoming;
  if (r.auth === 'basic') lay('basic-auth');
  if (r.errors === 'html') lay('html-error-pages');
  if (r.base !== 'v2.3') lay(BASES[r.base]);

  wrap(b, 'context', (_req, answer) => {
    const json = answer().json as Record<string, unknown> & { playbackPolicies: Record<string, unknown> };
    Object.assign(json.playbackPolicies, {
      canSkip: r.canSkip,
      canSkipBack: r.canSkipBack,
      canSeek: r.canSeek,
      canSkipToItem: r.canSkipToItem,
      limitedSkips: r.limitedSkips,
      notifyUserIntent: r.notifyUserIntent,
      pauseTtlSec: r.pauseTtlSec,
    });
    if (r.extraFields) Object.assign(json, { experiments: ['a'], analytics: { id: 7 } });
    return { status: 200, json };
  });
  if (r.extraFields) {
    editWindow(b, (json) => ({ ...json, nextPageToken: null, _links: { self: '/itemWindow' } }));
    wrap(b, 'version', (_req, answer) => ({ ...answer(), json: { ...(answer().json as object), etag: 'W/"1"' } }));
  }
  if (r.signedMedia) lay('signed-media-urls');
  if (r.ignoresReason) lay('ignores-reason');
  if (r.reportAnswer !== '204')
    lay(r.reportAnswer === '200-empty' ? 'time-played-200-empty' : 'time-played-200-context');
  let version = 1;
  const added = (): QueueItem => ({ ...(tracks(1, r.durationMillis)[0] as QueueItem), id: `added-${version}` });
  let policies: Record<string, unknown> = {};
  if (r.edits.length > 0)
    wrap(b, 'context', (_req, answer) => {
      const sent = answer();
      Object.assign((sent.json as { playbackPolicies: object }).playbackPolicies, policies);
      return sent;
    });
  for (const edit of r.edits) {
    let seen = 0;
    wrap(b, edit.after === 'poll' ? 'version' : 'itemWindow', (_req, answer) => {
      const sent = answer();
      if (sent.status === 200 && ++seen === edit.n) {
        const [items, changed] = editedQueue(b.items, edit.kind, added);
        b.items = items;
        if (edit.kind === 'policy')
          policies = { canSeek: policies.canSeek === undefined ? !r.canSeek : !policies.canSeek };
        if (changed) b.queueVersion = `qv-${++version}`;
      }
      return sent;
    });
  }
  if (r.warmup503) lay('retry-after-503-once');
  if (r.transfer !== 'plain') lay(TRANSFERS[r.transfer]);
  return b;
}

/** The valid variant of each base URL shape and each way of sending an answer. */
const BASES = {
  'v2.0-strict': 'v2.0-strict-reports',
  versionless: 'versionless-base-url',
  'double-slash': 'double-slash-base-url',
} as const;
const TRANSFERS = {
  gzip: 'gzip-answers',
  chunked: 'chunked-answers',
  close: 'connection-close',
  dropped: 'drops-kept-connections',
} as const;

/** The queue after one edit, and whether anything changed (a version moves only then). */
function editedQueue(list: QueueItem[], kind: Edit['kind'], added: () => QueueItem): [QueueItem[], boolean] {
  switch (kind) {
    case 'append':
      return [[...list, added()], true];
    case 'prepend':
      return [[added(), ...list], true];
    case 'remove-first':
      return [list.slice(1), list.length > 0];
    case 'remove-last':
      return [list.slice(0, -1), list.length > 0];
    case 'remove-middle': {
      const at = Math.floor(list.length / 2);
      return [[...list.slice(0, at), ...list.slice(at + 1)], list.length > 0];
    }
    case 'rename-middle': {
      // The same file under a corrected name: that track still (console.md §4, changing an item).
      const at = Math.floor(list.length / 2);
      const item = list[at];
      if (!item) return [list, false];
      const renamed = { ...item, track: { ...item.track, name: `${String(item.track.name)} (renamed)` } };
      return [[...list.slice(0, at), renamed, ...list.slice(at + 1)], true];
    }
    case 'policy':
      return [list, true];
  }
}
