/**
 * A model-based, randomized test of the simulated player (player.ts). fast-check generates a
 * queue set-up for two stub cloud queue servers (A and B, with disjoint item ids, random track
 * lengths, context policies and items' own `policies`) and a sequence of commands
 * (loadCloudQueue with or without playOnCompletion, itemId, track metadata, queueVersion;
 * skipToItem; refreshCloudQueue; suspend; a new session), user actions (play, pause, resume,
 * skips), engine-clock moves (small, to a track's end, to the window's edge, to the queue's end,
 * minutes), queue edits (new versions; new context policies, new policies of an item), engine
 * restarts (the player saved, closed, and a fresh one restoring the record on the same clock and
 * transport, as registry.ts does) and scripted server answers (503 with Retry-After, 404, 500,
 * 401, 403, malformed, dropped, held then released, hanging). Short runs of actions reach the
 * rows random ones rarely do (a load's track ending before its held answer, a held next window
 * at the edge while a skipToItem plays past it or the queue is cut, the queue's end and more
 * added, …), most with a restart in them. After every step, and after a 40-minute healthy
 * run-out, it checks:
 *
 *  1. Reports (docs/contract/platform.md §2.3): per playback at most one `final` and nothing after it; type `final`
 *     or `update`, `skip` only on a final; cumulative fields never go back; durationPlayedMillis
 *     ≤ timeSincePlaybackMillis; queueVersion one the server issued. After the run-out every
 *     playback that started and ended has its final ("posted once after each track finishes
 *     playing or is skipped"), unless its queue was dropped by a failing server or a 404 (docs/player.md).
 *  2. Ids (docs/contract/platform.md §2.3 `id`, §4.3 itemId, §7.1 404): never the placeholder `pending` or empty, on
 *     the wire or in status(); an item id sent to a queue is one of its items or one a command named.
 *  3. GET /itemWindow (docs/contract/platform.md §2.4, §4.3, §8, §9.3): a listed reason; window sizes integers ≥ 0;
 *     pause/play only with notifyUserIntent, skipNext/skipPrev only with limitedSkips or
 *     notifyUserIntent (and then the skip waits for the server), skipToItem to the server only
 *     with limitedSkips or without metadata, each decided by the policies in force for the
 *     playing item when the user or command acts (see 7) and no more often than asked; skipToItem
 *     with its itemId; load only for loads with limitedSkips (in a context they may have got) or
 *     without metadata, carrying the command's queueVersion (docs/player.md); resume only after a resume
 *     of a suspended session. Retries (§7.1, §7.2, §7.4): only after an incomplete try or a 503, at
 *     most 3, background ones 10 s after the try before, others 2 s / Retry-After clamped 2–10 s.
 *     Requests go to the queue playing or one being loaded, with its httpAuthorization
 *     (docs/contract/console.md §5), none but reports from an idle player (§3), fresh X-Request-Id, X-Player-Id.
 *  4. State (states.ts, docs/contract/platform.md §3): machineState is a named state; status() agrees with it; IDLE
 *     holds no queue, every other state a track, an item id and a version (except while a load
 *     is pending: a track started at once has none yet, docs/player.md); the playhead within the track,
 *     moving exactly with the clock while PLAYING and not at all otherwise; never PLAYING while
 *     parked at the queue's end or the window's edge; paused longer than the pauseTtlSec in force
 *     when it paused → suspended (§3 row 2); out of suspension only by a resume or a load (§3 row
 *     3); a pause "as at the end of the queue" only when the window says the queue ends or retries
 *     ran out (§4.3 queueCompleted, §7.4.3), or the track's load was superseded (its queue is left).
 *  6. Restart (docs/contract/console.md §1 "A restart on the same data dir finds everything it had"; saved.ts):
 *     the record is taken up without throwing or firing a row; the session, volume, queue,
 *     window, version, policies, atEnd/atEdge/draining, the same playback (its reports go on
 *     counting: one final, cumulative fields never go back) and its playhead come back; with a
 *     load that had started its track at once, which "counts as failed", what a failed load puts
 *     back (docs/player.md: "the track from where it was when the load began, with a pause or suspension
 *     made since"), and the tracks that load played still get their finals; a restart never
 *     starts playback nor ends a suspension; a player a restart closed sends nothing more.
 *  7. Policies (docs/player.md "Policies": "the queue's, with an item's own policies over them while it
 *     plays"; docs/contract/console.md §3/§4): in force are the context policies the player last fetched (ones its
 *     server served) with the playing item's own as the newest window the player holds gives
 *     them. canSkip/canSkipBack off refuse a user skip, canSkipToItem off a skipToItem, canSeek off
 *     a skipToItem that seeks, all with ERROR_DISALLOWED_BY_POLICY and no transition; after 11
 *     minutes of version polls the player acts on what its server serves now.
 *  5. Liveness: nothing throws (unhandled rejections, timer errors); after the healthy run-out
 *     every load and user skip was answered, every request ended, nothing is buffering, waiting
 *     to retry, or held for a first window that will never come; a paused or playing queue
 *     polls /version within 11 minutes (§8).
 *
 * The wire is seen at the player's own transport (send order, engine time, each retry), and each
 * report carries the playback it belongs to: TrackPlayback.report is wrapped to add a
 * `__playback` serial (the stub ignores unknown fields). Held and hanging answers are made at the
 * transport and released from the clock's settle, so a run costs no wall-clock waits; reports
 * nobody scripted are answered 204 there too, as the stub would. A few private fields of the
 * player are read (the current track, its queue and window, what waits for a first window, what
 * a pending load would put back); a saved track carries its playback's serial across a restart.
 *
 * Env: MODEL_SEED, MODEL_RUNS, MODEL_PATH replay or widen the search (a failure prints its seed,
 * path and shrunk steps); MODEL_IGNORE (a regular expression) leaves known violations out while
 * looking for others; MODEL_CASE='{"setup":…,"actions":[…]}' replays one case verbosely;
 * MODEL_DEBUG prints the rows the runs reached.
 *
 * The bugs it found are pinned by plain tests in transitions.test.ts. MODEL_IGNORE helps search
 * past a new one while it is open.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineClock } from '../clock/clock.js';
import { playerHarness, T0, type PlayerHarness } from '../testing/player-harness.js';
import { StubCloudQueue, tracks, type ScriptedAnswer } from '../testing/stub-cloud-queue.js';
import type { PlaybackReport } from '../api/queue-types.js';
import { BUFFERING_MS } from './audio.js';
import { CloudQueueClient, fetchTransport, type HttpRequest, type HttpResponse, type HttpTransport } from './client.js';
import { PlaybackError } from './errors.js';
import type { LoadParams, SkipToItemParams } from './events.js';
import { Player, type TransitionRecord } from './player.js';
import { readSavedPlayer } from './saved.js';
import { ALL_STATES, playbackStateOf, type MachineState } from './states.js';
import { TrackPlayback, type SavedTrack } from './track-playback.js';
import { TRANSITIONS } from './transitions.js';
import type { QueueWindow } from './windows.js';
import { DEFAULT_POLICIES, type PlaybackPolicies, type QueueItem, type Track } from './wire.js';

// ------------------------------------------------------------------ the yardstick (seed text)

/** docs/contract/platform.md §2.4 and §4.3 (with the v2.2 combination, §9.3). */
const SEED_REASONS = [
  'load',
  'pause',
  'play',
  'queueCompleted',
  'refresh',
  'resume',
  'skipNext',
  'skipPrev',
  'skipToItem',
  'load+queueCompleted',
];

// ------------------------------------------------------------------ generated input

type StubName = 'A' | 'B';
/** An item of the queue by index (modulo its length), its last, the one playing, or an id it never had. */
type ItemRef = number | 'gone' | 'current' | 'last';

/** Policies a context or an item may set (docs/contract/console.md §4 `playbackPolicies`, `items[].policies`). */
type PolicyPatch = Partial<
  Pick<
    PlaybackPolicies,
    'canSkip' | 'canSkipBack' | 'canSeek' | 'canSkipToItem' | 'limitedSkips' | 'notifyUserIntent' | 'pauseTtlSec'
  >
>;

interface QueueSetup {
  durations: number[];
  limitedSkips: boolean;
  notifyUserIntent: boolean;
  pauseTtlSec: number | undefined;
  canSeek: boolean;
  canSkip: boolean;
  canSkipBack: boolean;
  canSkipToItem: boolean;
  /** Items' own policies, by index (modulo), appended items too; null: none. */
  itemPolicies: (PolicyPatch | null)[];
  sendUpdateAfterMillis: number | undefined;
  periodicIntervalMillis: number | undefined;
  sendPlaybackActions: boolean;
}

interface Setup {
  A: QueueSetup;
  B: QueueSetup;
}

type Action =
  | {
      t: 'load';
      stub: StubName;
      play: boolean;
      item: ItemRef | null;
      meta: boolean;
      qv: 'none' | 'current' | 'stale' | 'bogus';
      pos: number | null;
    }
  | { t: 'skipNext' }
  | { t: 'skipPrev' }
  | { t: 'skipToItem'; item: ItemRef; meta: boolean; play: boolean | null; pos: number | null }
  | { t: 'play' }
  | { t: 'pause' }
  | { t: 'resume' }
  | { t: 'refresh' }
  | { t: 'suspend' }
  | { t: 'newSession' }
  | { t: 'advance'; ms: number }
  /** Advances to just before, at, or just after the end of the playing track. */
  | { t: 'toTrackEnd'; offset: number }
  /** Advances a second at a time until the player waits at the window's edge (at most 90 s). */
  | { t: 'toEdge' }
  /** `shortQueue`: the queue replaced by 24 new tracks of 3 s (new ids), so that the window's edge comes within seconds. */
  | {
      t: 'edit';
      stub: StubName | 'current';
      kind:
        | 'append'
        | 'removeFirst'
        | 'removeCurrent'
        | 'removeLast'
        | 'reverse'
        | 'touch'
        | 'context'
        | 'truncateAfterCurrent'
        | 'shortQueue';
    }
  /** A new version with new context policies (contextVersion moves too), or new policies of an item ('current': the one playing). */
  | { t: 'policy'; stub: StubName | 'current'; item: ItemRef | null; policy: PolicyPatch }
  | {
      t: 'script';
      stub: StubName | 'current';
      endpoint: 'itemWindow' | 'version' | 'context' | 'timePlayed';
      reason: string | null;
      answer: '503' | '404' | '500' | '401' | '403' | 'malformed' | 'drop' | 'hold' | 'hang';
      retryAfter: number;
      times: number;
    }
  | { t: 'release' }
  /** The engine stops and starts again: the player is saved, closed, and a fresh one takes the record up on the same clock. */
  | { t: 'restart' }
  /** Advances until the queue's last track ended (atEnd), or the player stops moving (at most 40 tracks: a bound of this test, not of the suite). */
  | { t: 'toEnd' }
  /** skipToItem with track metadata to the item `offset` after the one the last window request of the queue was asked for. */
  | { t: 'skipFar'; offset: number };

const mostly = (value: boolean) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(value) }, { weight: 1, arbitrary: fc.constant(!value) });

/** One or two policies changed: mostly a refusal (canSkip false…), or the reasons' conditions turned on or off. */
const policyPatchArb: fc.Arbitrary<PolicyPatch> = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constant<PolicyPatch>({ canSkip: false }) },
      { weight: 1, arbitrary: fc.constant<PolicyPatch>({ canSkip: true }) },
      { weight: 2, arbitrary: fc.constant<PolicyPatch>({ canSkipBack: false }) },
      { weight: 2, arbitrary: fc.constant<PolicyPatch>({ canSeek: false }) },
      { weight: 2, arbitrary: fc.constant<PolicyPatch>({ canSkipToItem: false }) },
      { weight: 2, arbitrary: fc.constant<PolicyPatch>({ limitedSkips: true }) },
      { weight: 2, arbitrary: fc.constant<PolicyPatch>({ limitedSkips: false }) },
      { weight: 2, arbitrary: fc.constant<PolicyPatch>({ notifyUserIntent: true }) },
      { weight: 2, arbitrary: fc.constant<PolicyPatch>({ notifyUserIntent: false }) },
      { weight: 1, arbitrary: fc.constant<PolicyPatch>({ pauseTtlSec: 5 }) },
      { weight: 1, arbitrary: fc.constant<PolicyPatch>({ pauseTtlSec: 30 }) },
    ),
    { minLength: 1, maxLength: 2 },
  )
  .map((patches) => Object.assign({}, ...patches) as PolicyPatch);

const queueSetupArb: fc.Arbitrary<QueueSetup> = fc.record({
  durations: fc.oneof<fc.Arbitrary<number[]>[]>(
    fc.array(fc.constantFrom(3_000, 3_000, 20_000, 45_000, 180_000), { minLength: 1, maxLength: 30, size: 'max' }),
    // Long queues of short tracks: the window's edge (docs/contract/platform.md §4.3 Next Window) comes within seconds.
    fc.array(fc.constantFrom(3_000, 5_000), { minLength: 17, maxLength: 30, size: 'max' }),
    // A few very short tracks: the queue's end, and a load's track ending before its answer, come at once.
    fc.array(fc.constantFrom(2_000, 3_000), { minLength: 1, maxLength: 4, size: 'max' }),
  ),
  limitedSkips: fc.boolean(),
  notifyUserIntent: fc.boolean(),
  pauseTtlSec: fc.constantFrom(undefined, 5, 30, 120),
  canSeek: mostly(true),
  canSkip: mostly(true),
  canSkipBack: mostly(true),
  canSkipToItem: mostly(true),
  itemPolicies: fc.oneof(
    { weight: 3, arbitrary: fc.constant<(PolicyPatch | null)[]>([]) },
    { weight: 2, arbitrary: fc.array(fc.option(policyPatchArb, { freq: 2 }), { minLength: 1, maxLength: 5 }) },
  ) as fc.Arbitrary<(PolicyPatch | null)[]>,
  sendUpdateAfterMillis: fc.constantFrom(undefined, 1_000, 10_000),
  periodicIntervalMillis: fc.constantFrom(undefined, 0, 5_000, 30_000),
  sendPlaybackActions: fc.boolean(),
});

const itemRefArb: fc.Arbitrary<ItemRef> = fc.oneof(
  { weight: 9, arbitrary: fc.nat(15) },
  { weight: 1, arbitrary: fc.constant('gone' as const) },
  { weight: 1, arbitrary: fc.constant('current' as const) },
  { weight: 1, arbitrary: fc.constant('last' as const) },
);
const stubArb: fc.Arbitrary<StubName> = fc.oneof(
  { weight: 3, arbitrary: fc.constant('A' as const) },
  { weight: 1, arbitrary: fc.constant('B' as const) },
);

const loadArb = fc.record({
  t: fc.constant('load' as const),
  stub: stubArb,
  play: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  item: fc.option(itemRefArb),
  meta: fc.boolean(),
  qv: fc.constantFrom('none' as const, 'current' as const, 'stale' as const, 'bogus' as const),
  pos: fc.option(fc.constantFrom(1_000, 50_000)),
});

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 5, arbitrary: loadArb },
  { weight: 3, arbitrary: fc.constant({ t: 'skipNext' as const }) },
  { weight: 2, arbitrary: fc.constant({ t: 'skipPrev' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('skipToItem' as const),
      item: itemRefArb,
      meta: fc.boolean(),
      play: fc.option(fc.boolean()),
      pos: fc.option(fc.constantFrom(0, 5_000)),
    }),
  },
  { weight: 3, arbitrary: fc.constant({ t: 'play' as const }) },
  { weight: 3, arbitrary: fc.constant({ t: 'pause' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'resume' as const }) },
  { weight: 2, arbitrary: fc.constant({ t: 'refresh' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'suspend' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'newSession' as const }) },
  {
    weight: 10,
    arbitrary: fc.record({
      t: fc.constant('advance' as const),
      ms: fc.constantFrom(
        100,
        BUFFERING_MS,
        1_000,
        2_000,
        2_500,
        3_000,
        5_000,
        10_000,
        20_000,
        30_000,
        60_000,
        180_000,
        300_000,
        600_000,
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ t: fc.constant('toTrackEnd' as const), offset: fc.constantFrom(-500, 0, 1, 500) }),
  },
  { weight: 3, arbitrary: fc.constant({ t: 'toEdge' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('edit' as const),
      stub: fc.constantFrom('current' as const, 'A' as const, 'B' as const),
      kind: fc.constantFrom(
        'append' as const,
        'removeFirst' as const,
        'removeCurrent' as const,
        'removeLast' as const,
        'reverse' as const,
        'touch' as const,
        'context' as const,
        'truncateAfterCurrent' as const,
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('policy' as const),
      stub: fc.constantFrom('current' as const, 'current' as const, 'A' as const, 'B' as const),
      item: fc.option(
        fc.oneof({ weight: 3, arbitrary: fc.constant('current' as const) }, { weight: 1, arbitrary: fc.nat(15) }),
        { freq: 2 },
      ),
      policy: policyPatchArb,
    }),
  },
  { weight: 3, arbitrary: fc.constant({ t: 'restart' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'toEnd' as const }) },
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('script' as const),
      stub: fc.constantFrom('current' as const, 'current' as const, 'current' as const, 'A' as const, 'B' as const),
      endpoint: fc.constantFrom(
        'itemWindow' as const,
        'itemWindow' as const,
        'itemWindow' as const,
        'itemWindow' as const,
        'version' as const,
        'context' as const,
        'context' as const,
        'timePlayed' as const,
      ),
      reason: fc.option(
        fc.constantFrom(
          'refresh',
          'refresh',
          'refresh',
          'load',
          'skipToItem',
          'skipNext',
          'skipPrev',
          'queueCompleted',
          'resume',
          'pause',
          'play',
        ),
        { freq: 3 },
      ),
      answer: fc.constantFrom(
        '503' as const,
        '503' as const,
        '404' as const,
        '500' as const,
        '401' as const,
        '403' as const,
        'malformed' as const,
        'drop' as const,
        'hold' as const,
        'hold' as const,
        'hold' as const,
        'hang' as const,
      ),
      retryAfter: fc.constantFrom(1, 3, 20),
      times: fc.integer({ min: 1, max: 6 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ t: 'release' as const }) },
);

/** `actions` with a restart at `at` (modulo its length + 1), or as they are. */
const withRestart = (actions: Action[], at: number | null): Action[] =>
  at === null
    ? actions
    : [...actions.slice(0, at % (actions.length + 1)), { t: 'restart' }, ...actions.slice(at % (actions.length + 1))];
const restartAtArb = fc.option(fc.nat(7), { freq: 3 });
const macroStubArb = fc.constantFrom('A' as const, 'B' as const);

/**
 * A load that starts a short track at once (its queue's limitedSkips off first, §4.3 load), its
 * answer held until the track ended: the answer brings the next track, says it was the queue's
 * last (the queue cut after it, or the load named the last), or does not follow a track a
 * skipToItem started meanwhile (load-answered-at-edge-plays, -ends, -asks).
 */
const edgeLoadRun: fc.Arbitrary<Action[]> = fc
  .record({
    stub: macroStubArb,
    short: fc.oneof(fc.constant(true), fc.constant(true), fc.constant(false)),
    item: fc.oneof(
      fc.constant<ItemRef>('last'),
      fc.constant<ItemRef>('last'),
      fc.nat(15),
      fc.constant<ItemRef | null>(null),
    ),
    skip: fc.option(fc.constantFrom(10, 11, 20, -7), { freq: 2 }),
    cut: fc.boolean(),
    restart: restartAtArb,
  })
  .map(({ stub, short, item, skip, cut, restart }): Action[] =>
    withRestart(
      [
        ...(short ? [{ t: 'edit', stub, kind: 'shortQueue' } as const] : []),
        { t: 'policy', stub, item: null, policy: { limitedSkips: false, canSkipToItem: true } },
        { t: 'script', stub, endpoint: 'itemWindow', reason: 'refresh', answer: 'hold', retryAfter: 1, times: 1 },
        { t: 'load', stub, play: true, item, meta: true, qv: 'none', pos: null },
        ...(skip !== null
          ? [{ t: 'advance', ms: BUFFERING_MS } as const, { t: 'skipFar', offset: skip } as const]
          : []),
        { t: 'advance', ms: BUFFERING_MS },
        { t: 'toTrackEnd', offset: 1 },
        ...(cut ? [{ t: 'edit', stub, kind: 'truncateAfterCurrent' } as const] : []),
        { t: 'release' },
      ],
      restart,
    ),
  );

/**
 * A queue of 24 short tracks loaded, the next window held until the player waits at the edge;
 * meanwhile a skipToItem plays a track 10 after the one the window was asked for (its answer ends
 * there: next-window-asks-again) or 11 after (not in it, the skipToItem's refresh queued:
 * next-window-waits), or the queue is cut after the track (next-window-ends); or every try of it
 * is refused (next-window-exhausted).
 */
const edgeWindowRun: fc.Arbitrary<Action[]> = fc
  .record({
    stub: macroStubArb,
    reason: fc.constantFrom(null, 'refresh', 'refresh', 'queueCompleted'),
    then: fc.constantFrom(
      'skip10' as const,
      'skip10' as const,
      'skip11' as const,
      'skip11' as const,
      'cut' as const,
      'none' as const,
      'exhaust' as const,
    ),
    restart: restartAtArb,
  })
  .map(({ stub, reason, then, restart }): Action[] =>
    withRestart(
      [
        { t: 'edit', stub, kind: 'shortQueue' },
        { t: 'load', stub, play: true, item: null, meta: false, qv: 'none', pos: null },
        // 'exhaust': every try refused, the edge waits until the retries run out (next-window-exhausted, §7.4.3).
        then === 'exhaust'
          ? {
              t: 'script',
              stub: 'current',
              endpoint: 'itemWindow',
              reason: 'refresh',
              answer: '503',
              retryAfter: 1,
              times: 6,
            }
          : { t: 'script', stub: 'current', endpoint: 'itemWindow', reason, answer: 'hold', retryAfter: 1, times: 2 },
        { t: 'toEdge' },
        ...(then === 'exhaust' ? [{ t: 'advance', ms: 30_000 } as const] : []),
        ...(then === 'skip10' || then === 'skip11'
          ? [
              { t: 'skipFar', offset: then === 'skip10' ? 10 : 11 } as const,
              { t: 'advance', ms: BUFFERING_MS } as const,
              { t: 'toTrackEnd', offset: 1 } as const,
            ]
          : then === 'cut'
            ? [{ t: 'edit', stub: 'current', kind: 'truncateAfterCurrent' } as const]
            : []),
        { t: 'release' },
      ],
      restart,
    ),
  );

/**
 * The queue's end, tracks added, the window refreshed, a play (play-at-end-more, -notifies); or
 * suspended there, tracks added, a resume (resume-answered-at-end-more).
 */
const endMoreRun: fc.Arbitrary<Action[]> = fc
  .record({ restart: restartAtArb, how: fc.constantFrom('play' as const, 'resume' as const, 'suspend' as const) })
  .map(({ restart, how }): Action[] =>
    withRestart(
      how === 'suspend'
        ? [{ t: 'toEnd' }, { t: 'suspend' }, { t: 'edit', stub: 'current', kind: 'append' }, { t: 'resume' }]
        : [{ t: 'toEnd' }, { t: 'edit', stub: 'current', kind: 'append' }, { t: 'refresh' }, { t: how }],
      restart,
    ),
  );

/** A user skip the server refuses (403: skip-refused), holds (a restart while it waits) or fails. */
const refusedSkipRun: fc.Arbitrary<Action[]> = fc
  .record({
    direction: fc.constantFrom('skipNext' as const, 'skipPrev' as const),
    answer: fc.constantFrom('403' as const, 'hold' as const, '503' as const),
    restart: restartAtArb,
  })
  .map(({ direction, answer, restart }): Action[] =>
    withRestart(
      [
        { t: 'script', stub: 'current', endpoint: 'itemWindow', reason: direction, answer, retryAfter: 3, times: 1 },
        { t: direction },
        { t: 'advance', ms: 1_000 },
        { t: 'release' },
      ],
      restart,
    ),
  );

/** A report or a version poll answered 404 (session-not-found). */
const notFoundRun: fc.Arbitrary<Action[]> = fc
  .record({ endpoint: fc.constantFrom('timePlayed' as const, 'version' as const), restart: restartAtArb })
  .map(({ endpoint, restart }): Action[] =>
    withRestart(
      [
        { t: 'script', stub: 'current', endpoint, reason: null, answer: '404', retryAfter: 1, times: 1 },
        { t: 'toTrackEnd', offset: 1 },
        { t: 'advance', ms: 600_000 },
      ],
      restart,
    ),
  );

/** A pause (a skip while paused), a restart just before pauseTtlSec (5, 30, 120 s) runs out, a play. */
const pausedRestartRun: fc.Arbitrary<Action[]> = fc
  .record({
    wait: fc.constantFrom(4_000, 29_000, 119_000),
    skip: fc.constantFrom(null, 'skipNext' as const, 'skipNext' as const, 'skipPrev' as const),
    restart: restartAtArb,
  })
  .map(({ wait, skip, restart }): Action[] =>
    withRestart(
      [
        { t: 'pause' },
        ...(skip ? [{ t: skip } as const] : []),
        { t: 'advance', ms: wait },
        { t: 'restart' },
        { t: 'advance', ms: 2_000 },
        { t: 'play' },
      ],
      restart,
    ),
  );

/** A restart while a refreshCloudQueue waits to retry (§7.3 background). */
const retryRestartRun: fc.Arbitrary<Action[]> = fc
  .record({ answer: fc.constantFrom('503' as const, 'drop' as const), restart: restartAtArb })
  .map(({ answer, restart }): Action[] =>
    withRestart(
      [
        { t: 'script', stub: 'current', endpoint: 'itemWindow', reason: 'refresh', answer, retryAfter: 5, times: 2 },
        { t: 'refresh' },
        { t: 'advance', ms: 3_000 },
        { t: 'restart' },
        { t: 'advance', ms: 20_000 },
      ],
      restart,
    ),
  );

/**
 * Short runs of actions that reach rows random ones rarely do, most with a restart somewhere in
 * them (docs/player.md: "a restart meanwhile"), and a restart while suspended.
 */
const macroArb: fc.Arbitrary<Action[]> = fc.oneof(
  { weight: 2, arbitrary: edgeLoadRun },
  { weight: 3, arbitrary: edgeWindowRun },
  { weight: 1, arbitrary: endMoreRun },
  { weight: 1, arbitrary: refusedSkipRun },
  { weight: 1, arbitrary: notFoundRun },
  { weight: 1, arbitrary: pausedRestartRun },
  { weight: 1, arbitrary: retryRestartRun },
  { weight: 1, arbitrary: fc.constant<Action[]>([{ t: 'suspend' }, { t: 'restart' }, { t: 'resume' }]) },
);

/** The actions after the first load: single ones, and now and then one of the runs above. */
const restArb: fc.Arbitrary<Action[]> = fc
  .array(fc.oneof({ weight: 7, arbitrary: actionArb.map((a) => [a]) }, { weight: 2, arbitrary: macroArb }), {
    maxLength: 18,
    size: 'max',
  })
  .map((chunks) => chunks.flat());

// ------------------------------------------------------------------ instrumentation

/** One serial per playback (TrackPlayback instance); the run that owns it. */
const playbackIds = new WeakMap<TrackPlayback, number>();
let nextPlaybackId = 1;
const playbackId = (playback: TrackPlayback): number => {
  let id = playbackIds.get(playback);
  if (id === undefined) {
    id = nextPlaybackId++;
    playbackIds.set(playback, id);
  }
  return id;
};
/** The run in progress (runs are sequential). */
let world: World | null = null;

/** The player's state record (context.ts), as the model reads it. */
type PlayerInternals = {
  track: TrackPlayback | null;
  queue: { policies: PlaybackPolicies; target: { queueBaseUrl: string } } | null;
  window: QueueWindow | null;
  state: MachineState;
  closed: boolean;
  loading: unknown;
  skipping: unknown;
  untilFirstWindow: unknown[];
  reportsUntilFirstWindow: unknown[];
  draining: boolean;
  firstWindowPending: boolean;
};
/** The player's own methods the model wraps: dispatching through the table, leaving a queue's requests. */
type PlayerMethods = {
  ctx: PlayerInternals;
  dispatch: (event: { type: string }, meta?: unknown) => { id: string; effects: readonly string[] } | undefined;
  leaveRequests: (why: string) => void;
};
const internals = (player: Player) => (player as unknown as PlayerMethods).ctx;

/** Rows that drop the queue because its server failed or answered 404 (docs/player.md: no final then). */
const DROPPING_ROWS = ['window-not-found', 'session-not-found', 'foreground-failed'];

/** What a pending load would put back (player.ts `Snapshot`), read at a restart. */
type LoadInternals = {
  startedAtOnce: boolean;
  startedTrack?: TrackPlayback;
  previous: {
    state: MachineState;
    track: TrackPlayback | null;
    queue: { target: { queueBaseUrl: string } } | null;
    window: QueueWindow | null;
    atEnd: boolean;
    atEdge: boolean;
  } | null;
  cutOffs: { report: { __playback?: number } }[];
};

/**
 * The policies in force (docs/player.md "Policies": "the queue's, with an item's own `policies` over
 * them while it plays"): the queue's as the player last fetched its context, and the playing
 * item's as the newest window the player holds has them (the track's own item if no window
 * holds it: a track started from metadata).
 */
function policiesInForce(player: Player): PlaybackPolicies {
  const inner = internals(player);
  const id = inner.track?.item.id;
  const fromWindow = id !== undefined ? inner.window?.item(id) : undefined;
  return { ...DEFAULT_POLICIES, ...inner.queue?.policies, ...(fromWindow ?? inner.track?.item)?.policies };
}

/** Said beside a policy violation when the player's track holds an older copy of its item's policies than its window. */
function stalePolicies(player: Player): string {
  const inner = internals(player);
  const id = inner.track?.item.id;
  const fromWindow = id !== undefined ? inner.window?.item(id) : undefined;
  if (!fromWindow || JSON.stringify(fromWindow.policies ?? {}) === JSON.stringify(inner.track?.item.policies ?? {}))
    return '';
  return ` [stale item policies: the window the player holds gives ${id} ${JSON.stringify(fromWindow.policies ?? {})}, the track's own copy ${JSON.stringify(inner.track?.item.policies ?? {})}]`;
}

const originals = {
  report: TrackPlayback.prototype.report,
  play: TrackPlayback.prototype.play,
  save: TrackPlayback.prototype.save,
  restore: TrackPlayback.restore.bind(TrackPlayback),
  dispatch: (Player.prototype as unknown as PlayerMethods).dispatch,
  leaveRequests: (Player.prototype as unknown as PlayerMethods).leaveRequests,
  consoleError: console.error,
};
const onUnhandled = (reason: unknown) =>
  world?.violation(`unhandled rejection: ${String((reason as Error)?.stack ?? reason)}`);

function instrument(): void {
  TrackPlayback.prototype.report = function (this: TrackPlayback, ...args: Parameters<TrackPlayback['report']>) {
    return { ...originals.report.apply(this, args), __playback: playbackId(this) } as ReturnType<
      TrackPlayback['report']
    >;
  };
  TrackPlayback.prototype.play = function (this: TrackPlayback, now: number) {
    world?.playbacks.set(playbackId(this), this);
    return originals.play.call(this, now);
  };
  // A playback saved and restored is the same playback (its reports go on counting): the record
  // carries its serial across, as it carries its played time.
  TrackPlayback.prototype.save = function (this: TrackPlayback, now: number) {
    return { ...originals.save.call(this, now), __playback: playbackId(this) } as SavedTrack;
  };
  TrackPlayback.restore = (saved: SavedTrack) => {
    const playback = originals.restore(saved);
    const id = (saved as SavedTrack & { __playback?: number }).__playback;
    if (id !== undefined) {
      playbackIds.set(playback, id);
      if (world?.playbacks.has(id)) world.playbacks.set(id, playback);
    }
    return playback;
  };
  (Player.prototype as unknown as PlayerMethods).dispatch = function (this: PlayerMethods, event, meta) {
    const inner = this.ctx;
    const before = inner.track;
    const loading = inner.loading as LoadInternals | null;
    const putsBack = !!loading?.previous;
    const row = originals.dispatch.call(this, event, meta);
    // The pauseTtlSec in force when a row pauses the player (and arms the timer), for the check of
    // docs/contract/platform.md §3 row 2; a failed load that puts a queue back pauses it anew (docs/player.md), one that did not
    // start its track at once leaves the player as it is.
    if (
      row &&
      world &&
      inner.state === 'PAUSED' &&
      (row.effects.includes('armPauseTtl') || (row.id === 'load-failed' && putsBack))
    ) {
      const record = world.h.transitions.at(-1);
      if (record)
        world.pausedAt.set(record, {
          ttl: policiesInForce(this as unknown as Player).pauseTtlSec,
          note: stalePolicies(this as unknown as Player),
        });
    }
    if (row && before && DROPPING_ROWS.includes(row.id)) world?.dropped.add(playbackId(before));
    // docs/contract/platform.md §4.3 queueCompleted: "With no more tracks, the player pauses after the current audio ends."
    const window = inner.window;
    // Not a track a superseded started-at-once load played (its queue is left for good, player.ts
    // restartCurrent: "a load superseding the one that started it waits"): nothing follows it.
    const superseded = !!inner.loading && !(inner.loading as LoadInternals).startedAtOnce && inner.firstWindowPending;
    if (row?.id === 'track-ends-last' && !inner.draining && !window?.includesEndOfQueue && !superseded) {
      if (inner.track) world?.endedWithoutWindow.add(playbackId(inner.track));
      world?.violation(
        `a track ended and the player paused as at the end of the queue, with ${window ? 'a window that says the queue goes on' : 'no window at all'}`,
      );
    }
    // Told apart in the message: the final reports a started-at-once load held for the tracks it cut off.
    if (row && loading && inner.loading !== loading && !row.id.startsWith('load-answered')) {
      for (const cut of loading.cutOffs)
        if (cut.report.__playback) world?.heldCutOffs.set(cut.report.__playback, row.id);
    }
    return row;
  };
  (Player.prototype as unknown as PlayerMethods).leaveRequests = function (this: PlayerMethods, why: string) {
    // Told apart in the message: reports held for a first window when the player leaves them.
    for (const held of this.ctx.reportsUntilFirstWindow as {
      prepared: { report: { __playback?: number; type: string } };
    }[]) {
      if (held.prepared.report.type === 'final' && held.prepared.report.__playback)
        world?.heldDropped.set(held.prepared.report.__playback, why);
    }
    return originals.leaveRequests.call(this, why);
  };
  console.error = (...args: unknown[]) => {
    world?.violation(
      `console.error (a timer callback threw?): ${args.map((a) => String((a as Error)?.stack ?? a)).join(' ')}`,
    );
    originals.consoleError(...args);
  };
  process.on('unhandledRejection', onUnhandled);
}

function uninstrument(): void {
  TrackPlayback.prototype.report = originals.report;
  TrackPlayback.prototype.play = originals.play;
  TrackPlayback.prototype.save = originals.save;
  TrackPlayback.restore = originals.restore;
  (Player.prototype as unknown as PlayerMethods).dispatch = originals.dispatch;
  (Player.prototype as unknown as PlayerMethods).leaveRequests = originals.leaveRequests;
  console.error = originals.consoleError;
  process.off('unhandledRejection', onUnhandled);
}

/** A context's policies as the player adopts them (over the defaults), as a comparable key. */
const policyKey = (policies: Partial<PlaybackPolicies>): string => {
  const full: Record<string, unknown> = { ...DEFAULT_POLICIES, ...policies };
  return JSON.stringify(
    Object.keys(full)
      .sort()
      .map((k) => [k, full[k]]),
  );
};

/** MODEL_IGNORE (a regular expression): violations to leave out while looking for others. */
const IGNORE = process.env.MODEL_IGNORE ? new RegExp(process.env.MODEL_IGNORE) : null;

// ------------------------------------------------------------------ what the wire saw

/** A report as it went over the wire (any `type`, any `skip`, checked here), with its playback's tag. */
interface SentReport extends Omit<PlaybackReport, 'type' | 'skip'> {
  type: string;
  skip?: { reportId?: string };
  __playback?: number;
}

interface WireRequest {
  seq: number;
  /** The player that sent it: 0 the first, n the one the n-th restart made. */
  gen: number;
  at: number;
  stub: StubName | '?';
  method: string;
  endpoint: string;
  query: Record<string, string>;
  requestId: string;
  headers: Record<string, string>;
  reports: SentReport[];
}

interface TransportRule {
  stub: StubName;
  endpoint: string;
  reason: string | null;
  kind: 'hold' | 'hang';
  times: number;
}

class World {
  h!: PlayerHarness;
  readonly stubs = {} as Record<StubName, StubCloudQueue>;
  readonly wire: WireRequest[] = [];
  readonly violations: string[] = [];
  readonly rules: TransportRule[] = [];
  readonly held: (() => Promise<unknown>)[] = [];
  /** `mayAsk`: §4.3 load: its first window may say reason=load (limitedSkips in a context it may have got, or no metadata). */
  readonly loads: { params: LoadParams; stub: StubName; mayAsk: boolean; settled: boolean }[] = [];
  readonly skips: { settled: boolean }[] = [];
  /** Every item id each queue ever held, with its track. */
  readonly everItems: Record<StubName, Map<string, Track>> = { A: new Map(), B: new Map() };
  /** Item ids named by commands (they may be unknown to the queue: answered 404). */
  readonly commandIds = new Set<string>();
  /** queueVersion values named by commands. */
  readonly commandVersions = new Set<string>();
  readonly playbacks = new Map<number, TrackPlayback>();
  /** Playbacks current when their queue was dropped by a failing server or a 404. */
  readonly dropped = new Set<number>();
  /** Playbacks whose final a started-at-once load held (cut off) when a row ended that load. */
  readonly heldCutOffs = new Map<number, string>();
  /** Playbacks whose final was held for a first window when the player left what it held (why). */
  readonly heldDropped = new Map<number, string>();
  /** Playbacks that ended as the queue's last with no window to say so. */
  readonly endedWithoutWindow = new Set<number>();
  /** User actions the policies in force let ask the server (notifyUserIntent; limitedSkips or notifyUserIntent for skips). */
  readonly counts = { pause: 0, play: 0, skipNext: 0, skipPrev: 0, resumeWhileSuspended: 0 };
  /** Every context policy set each queue ever served (as the player adopts it: over the defaults). */
  readonly servedPolicies: Record<StubName, Set<string>> = { A: new Set(), B: new Set() };
  /** The pauseTtlSec in force when a row paused the player (see the dispatch wrapper), or a restart put it back paused. */
  readonly pausedAt = new Map<TransitionRecord, { ttl: number | undefined; note: string }>();
  /** Players a restart closed; and the number of restarts so far (the current player's generation). */
  readonly closedPlayers: Player[] = [];
  generation = 0;
  /** Playbacks a restart left behind with a load that had started them at once (their final is owed: the load counts as failed). */
  readonly abandonedByRestart = new Map<number, number>();
  readonly skipToItemAsking = new Set<string>();
  readonly loadVersions: Record<StubName, Set<string | undefined>> = { A: new Set(), B: new Set() };
  current: StubName = 'A';
  /** The queue of the last load answered, and its httpAuthorization. */
  owner: { stub: StubName; token: string } | null = null;
  readonly tokens: Record<StubName, Set<string>> = { A: new Set(), B: new Set() };
  nextItem: Record<StubName, number> = { A: 0, B: 0 };
  seq = 0;
  step = 0;
  log: string[] = [];

  constructor(readonly setup: Setup) {}

  violation(message: string): void {
    if (IGNORE && IGNORE.test(message)) return;
    this.violations.push(`[step ${this.step}] ${message}`);
  }

  async start(): Promise<void> {
    const items = (name: StubName) => this.setup[name].durations.map((d) => this.newItem(name, d));
    const options = (name: StubName) => {
      const q = this.setup[name];
      const policies = {
        limitedSkips: q.limitedSkips,
        notifyUserIntent: q.notifyUserIntent,
        canSeek: q.canSeek,
        canSkip: q.canSkip,
        canSkipBack: q.canSkipBack,
        canSkipToItem: q.canSkipToItem,
        ...(q.pauseTtlSec !== undefined ? { pauseTtlSec: q.pauseTtlSec } : {}),
      };
      this.servedPolicies[name].add(policyKey(policies));
      return {
        items: items(name),
        policies,
        reports: {
          ...(q.sendUpdateAfterMillis !== undefined ? { sendUpdateAfterMillis: q.sendUpdateAfterMillis } : {}),
          ...(q.periodicIntervalMillis !== undefined ? { periodicIntervalMillis: q.periodicIntervalMillis } : {}),
          sendPlaybackActions: q.sendPlaybackActions,
        },
      };
    };
    this.h = await playerHarness(options('A'), { transport: (clock) => this.transport(clock) });
    this.stubs.A = this.h.stub;
    this.stubs.B = await new StubCloudQueue(options('B')).start();
  }

  async close(): Promise<void> {
    for (const go of this.held.splice(0)) void go().catch(() => undefined);
    // The harness closes the player it made; a restart's player is closed here.
    if (this.generation > 0) this.h.player.close();
    await this.h.close();
    await this.stubs.B.close();
  }

  private newItem(name: StubName, durationMillis: number): QueueItem {
    const prefix = name === 'A' ? 'a' : 'b';
    const n = ++this.nextItem[name];
    const item: QueueItem = tracks(1, durationMillis, `${prefix}${n}x`)[0]!;
    const own = this.setup[name].itemPolicies;
    const policies = own.length > 0 ? own[(n - 1) % own.length] : null;
    if (policies) item.policies = { ...policies };
    this.everItems[name].set(item.id, item.track);
    return item;
  }

  /**
   * The engine stops and starts again (registry.ts): the player is saved (through JSON, as the
   * store keeps it) and closed, and a fresh player on the same clock and transport takes the
   * record up. saved.ts: the session, the queue, the window, the track and its playhead, the
   * requests it was waiting on (asked again); a load not answered counts as failed: the player is
   * saved as it was before it. Checked here: the player is where it was (the same playback, the
   * same playhead, item, version, queue, state), or, with a load that had started its track at
   * once, where a failed load leaves it (docs/player.md: "the track from where it was when the load
   * began, with a pause or suspension made since"), and a restart never starts playback.
   */
  restart(): void {
    const { h } = this;
    const old = h.player;
    const inner = internals(old);
    const before = {
      state: old.machineState,
      status: old.status(),
      snap: old.snapshot(),
      track: inner.track,
      session: old.currentSession?.id ?? null,
    };
    const pending = inner.loading as LoadInternals | null;
    const previous = pending?.previous ?? null;
    // What a failed load would put back (player.ts stateBeforeLoad, restorePrevious).
    const expected = previous
      ? {
          state:
            previous.state === 'IDLE'
              ? ('IDLE' as const)
              : before.state === 'PAUSED' || before.state === 'SUSPENDED'
                ? before.state
                : previous.state,
          track: previous.state === 'IDLE' ? null : previous.track,
          queueBaseUrl: previous.state === 'IDLE' ? null : (previous.queue?.target.queueBaseUrl ?? null),
          queueVersion: previous.state === 'IDLE' ? null : (previous.window?.queueVersion ?? null),
          atEnd: previous.state !== 'IDLE' && previous.atEnd,
          atEdge: previous.state !== 'IDLE' && previous.atEdge,
        }
      : {
          state: before.state,
          track: inner.track,
          queueBaseUrl: before.snap.queueBaseUrl,
          queueVersion: before.status.queueVersion,
          atEnd: before.snap.atEnd,
          atEdge: before.snap.atEdge,
        };
    // The tracks such a load played are left for good: their finals are owed (docs/player.md, a failed load).
    if (previous && inner.track && inner.track !== previous.track)
      this.abandonedByRestart.set(playbackId(inner.track), this.step);
    // And the reports held for its first window (a final among them: a track a skipToItem replaced meanwhile).
    for (const held of inner.reportsUntilFirstWindow as { prepared: { report: { __playback?: number } } }[]) {
      if (held.prepared.report.__playback) this.abandonedByRestart.set(held.prepared.report.__playback, this.step);
    }
    let record;
    try {
      record = readSavedPlayer(JSON.parse(JSON.stringify(old.save())));
    } catch (error) {
      return this.violation(`save() threw: ${String((error as Error)?.stack ?? error)}`);
    }
    if (!record) return this.violation('save() wrote a record readSavedPlayer does not take up');
    old.close();
    this.closedPlayers.push(old);
    const gen = ++this.generation;
    const client = new CloudQueueClient({
      playerId: 'player-test',
      clock: h.clock,
      transport: this.transport(h.clock, gen),
      onExchange: (e) => h.exchanges.push(e),
    });
    const player = new Player({
      playerId: 'player-test',
      groupId: 'group-test',
      clock: h.clock,
      client,
      onTransition: (r) => h.transitions.push(r),
    });
    h.player = player;
    const transitions = h.transitions.length;
    try {
      player.restore(record);
    } catch (error) {
      return this.violation(`restore() threw: ${String((error as Error)?.stack ?? error)}`);
    }
    if (h.transitions.length !== transitions)
      this.violation(
        `restore() fired rows: ${h.transitions
          .slice(transitions)
          .map((t) => t.transition)
          .join(' ')}`,
      );
    const after = {
      state: player.machineState,
      status: player.status(),
      snap: player.snapshot(),
      track: internals(player).track,
    };
    const tag = `restart in ${before.state}${previous ? ` (a load that started its track at once pending; before it: ${previous.state})` : ''}`;
    if ((player.currentSession?.id ?? null) !== before.session)
      this.violation(`${tag}: the session ${String(before.session)} came back as ${String(player.currentSession?.id)}`);
    if (after.snap.volume !== before.snap.volume)
      this.violation(`${tag}: volume ${before.snap.volume} came back as ${after.snap.volume}`);
    // docs/contract/platform.md §3: only an explicit resume wakes a suspended session; a pause holds until a play.
    if (before.state === 'SUSPENDED' && after.state !== 'SUSPENDED' && after.state !== 'IDLE') {
      this.violation(
        `${tag}: came back ${after.state}: a restart ended the suspension (docs/contract/platform.md §3: a suspended session plays again only on an explicit resume, with reason=resume)`,
      );
    } else if (before.state === 'PAUSED' && (after.state === 'PLAYING' || after.state === 'BUFFERING')) {
      this.violation(`${tag}: came back ${after.state}: a restart started playback the user had paused`);
    } else if (after.state !== expected.state) {
      this.violation(`${tag}: came back ${after.state}, expected ${expected.state}`);
    }
    const same = (what: string, was: unknown, is: unknown) => {
      if (JSON.stringify(was) !== JSON.stringify(is))
        this.violation(`${tag}: ${what} ${JSON.stringify(was)} came back as ${JSON.stringify(is)}`);
    };
    same('queue', expected.queueBaseUrl, after.snap.queueBaseUrl);
    same('queueVersion', expected.queueVersion, after.status.queueVersion);
    same('atEnd', expected.atEnd, after.snap.atEnd);
    same('atEdge', expected.atEdge, after.snap.atEdge);
    if (expected.track) {
      const now = h.clock.now();
      same('playback', playbackId(expected.track), after.track ? playbackId(after.track) : null);
      same('item', expected.track.item.id === 'pending' ? null : expected.track.item.id, after.status.itemId);
      same('playhead', Math.round(expected.track.position(now)), after.status.positionMillis);
      if (after.track)
        same(
          'played time',
          Math.round(expected.track.durationPlayed(now)),
          Math.round(after.track.durationPlayed(now)),
        );
    } else if (after.track)
      this.violation(`${tag}: came back with a track (${after.status.itemId}) where there was none`);
    if (!previous) {
      same('window', before.snap.window, after.snap.window);
      same('policies', before.snap.policies, after.snap.policies);
      same('draining', before.snap.draining, after.snap.draining);
    }
    // The restart as a transition, for the checks that read them (a pause's pauseTtlSec, a suspension's end).
    if (after.state !== before.state) {
      const record: TransitionRecord = {
        playerId: player.id,
        groupId: player.groupId,
        at: h.clock.now(),
        from: before.state,
        to: after.state,
        event: 'restart' as never,
        cause: 'command',
        transition: 'model-restart',
      };
      h.transitions.push(record);
      if (after.state === 'PAUSED')
        this.pausedAt.set(record, { ttl: policiesInForce(player).pauseTtlSec, note: stalePolicies(player) });
    }
  }

  stubOf(url: URL): StubName | '?' {
    for (const name of ['A', 'B'] as const)
      if (this.stubs[name] && new URL(this.stubs[name].baseUrl).port === url.port) return name;
    return '?';
  }

  /** The player's transport: records every request as sent, and holds or hangs scripted ones. */
  private transport(clock: EngineClock, gen = 0): HttpTransport {
    return (request: HttpRequest): Promise<HttpResponse> => {
      const url = new URL(request.url);
      const endpoint = url.pathname.split('/').at(-1) ?? '';
      const stub = this.stubOf(url);
      let reports: SentReport[] = [];
      if (endpoint === 'timePlayed' && request.body)
        reports = (JSON.parse(request.body) as { items: SentReport[] }).items;
      this.wire.push({
        seq: this.seq++,
        gen,
        at: clock.now(),
        stub,
        method: request.method,
        endpoint,
        query: Object.fromEntries(url.searchParams),
        requestId: request.headers['x-request-id'] ?? '',
        headers: request.headers,
        reports,
      });
      this.checkSend(this.wire.at(-1)!);
      const reason = url.searchParams.get('reason');
      const rule = this.rules.find(
        (r) => r.stub === stub && r.endpoint === endpoint && (r.reason === null || r.reason === reason),
      );
      if (!rule) {
        // The stub answers every report 204 unless scripted (stub-cloud-queue.ts): answered here, as it
        // would (two thirds of the requests; the wire above has them), to keep the run fast.
        const scripted =
          stub !== '?' &&
          (this.stubs[stub] as unknown as { scripts: { endpoint: string }[] }).scripts.some(
            (sc) => sc.endpoint === 'timePlayed',
          );
        if (endpoint === 'timePlayed' && stub !== '?' && !scripted && !request.signal.aborted)
          return Promise.resolve(new Response(null, { status: 204 }));
        return fetchTransport(request);
      }
      if (--rule.times === 0) this.rules.splice(this.rules.indexOf(rule), 1);
      // Not waited for by the clock's settle: a held answer is released by the model, a hanging
      // one ends with the client's own 10 s engine-clock timeout.
      clock.release(request.headers['x-request-id']!);
      return new Promise<HttpResponse>((resolve, reject) => {
        const aborted = () =>
          reject(request.signal.reason instanceof Error ? request.signal.reason : new Error('aborted'));
        if (request.signal.aborted) return aborted();
        request.signal.addEventListener('abort', aborted, { once: true });
        if (rule.kind === 'hold') {
          this.held.push(() => {
            if (request.signal.aborted) return Promise.resolve();
            const fetched = fetchTransport(request);
            fetched.then(resolve, reject);
            return fetched;
          });
        }
      });
    };
  }

  /**
   * Where a request may go, as it is sent: to the queue of the last load answered, with its
   * httpAuthorization (docs/contract/console.md §5), or, while a load waits, to that load's queue too (the queue
   * playing goes on until the answer, docs/player.md). Nothing but reports once the player is idle
   * (docs/contract/platform.md §3: no active queue). Reports may go to a queue the player left (its cut-off tracks).
   */
  private checkSend(r: WireRequest): void {
    if (r.stub === '?') return;
    const auth = r.headers.authorization;
    const where = `${r.method} ${r.endpoint}${r.query.reason ? ` reason=${r.query.reason}` : ''} to ${r.stub} (#${r.seq})`;
    // A player a restart closed sends nothing more (registry.ts: "retries stop once a player closed"; its successor asks again).
    if (r.gen !== this.generation)
      return this.violation(
        `${where}: sent by the player a restart closed (generation ${r.gen}, now ${this.generation})`,
      );
    if (auth === undefined || !this.tokens[r.stub].has(auth))
      this.violation(`${where}: Authorization ${String(auth)} is not the httpAuthorization of any load of that queue`);
    if (r.endpoint === 'timePlayed') return;
    const pending = this.loads.filter((l) => !l.settled);
    if (pending.length > 0) {
      if (r.stub !== this.owner?.stub && !pending.some((l) => l.stub === r.stub))
        this.violation(`${where}: neither the queue playing nor one being loaded`);
      return;
    }
    if (this.h.player.machineState === 'IDLE')
      return this.violation(`${where}: sent by an idle player (no active queue, docs/contract/platform.md §3)`);
    if (!this.owner || r.stub !== this.owner.stub)
      this.violation(`${where}: not the queue of the last load answered (${this.owner?.stub ?? 'none'})`);
    else if (auth !== this.owner.token)
      this.violation(`${where}: Authorization ${String(auth)}, not the last load's ${this.owner.token}`);
  }

  async release(): Promise<void> {
    await Promise.allSettled(this.held.splice(0).map((go) => go()));
    await this.h.settle();
  }

  /** The queue's item for a reference (the one playing, its last, by index), or an unknown id. */
  private pick(ref: ItemRef, stub: StubName): QueueItem {
    const items = this.stubs[stub].items;
    if (ref === 'gone' || items.length === 0)
      return { id: 'gone', track: { mediaUrl: 'https://media.example/gone.mp3', durationMillis: 20_000 } };
    if (ref === 'current') return items.find((item) => item.id === this.h.player.status().itemId) ?? items[0]!;
    if (ref === 'last') return items.at(-1)!;
    return items[ref % items.length]!;
  }

  private command(run: () => void, what: string): void {
    try {
      run();
    } catch (error) {
      if (!(error instanceof PlaybackError))
        this.violation(`${what} threw ${String((error as Error)?.stack ?? error)}`);
    }
  }

  /** `refusedWith`: the promise must be refused with that code (a policy forbids the action). */
  private expectPlaybackError(
    promise: Promise<unknown>,
    what: string,
    into: { settled: boolean },
    refusedWith?: { code: string; why: string },
  ): void {
    promise.then(
      () => {
        into.settled = true;
        if (refusedWith)
          this.violation(`${what} succeeded: ${refusedWith.why}, it should be refused with ${refusedWith.code}`);
      },
      (error: unknown) => {
        into.settled = true;
        if (!(error instanceof PlaybackError))
          this.violation(`${what} rejected with ${String((error as Error)?.stack ?? error)}`);
        else if (refusedWith && error.errorCode !== refusedWith.code)
          this.violation(
            `${what} refused with ${error.errorCode} (${error.reason}): ${refusedWith.why}, it should be ${refusedWith.code}`,
          );
      },
    );
  }

  /** The rows a synchronous call fired. */
  private rowsOf(call: () => void): string[] {
    const before = this.h.transitions.length;
    call();
    return this.h.transitions.slice(before).map((t) => t.transition);
  }

  /**
   * skipToItem, checked against the policies in force (docs/player.md "Policies"; docs/contract/console.md §3
   * ERROR_DISALLOWED_BY_POLICY): canSkipToItem off refuses it, canSeek off refuses a seek of the
   * playing item; §4.3: it asks the server only with limitedSkips or without track metadata.
   */
  private skipToItem(item: QueueItem, meta: boolean, play: boolean | null, pos: number | null): void {
    const player = this.h.player;
    const params: SkipToItemParams = {
      itemId: item.id,
      ...(meta ? { trackMetadata: item.track } : {}),
      ...(play !== null ? { playOnCompletion: play } : {}),
      ...(pos !== null ? { positionMillis: pos } : {}),
    };
    this.commandIds.add(item.id);
    const policies = policiesInForce(player);
    const state = player.machineState;
    const current = internals(player).track?.item.id;
    const asks = policies.limitedSkips || !meta;
    const stale = stalePolicies(player);
    let error: unknown = null;
    const rows = this.rowsOf(() => {
      try {
        player.skipToItem(params);
      } catch (thrown) {
        error = thrown;
      }
    });
    if (error !== null && !(error instanceof PlaybackError))
      return this.violation(`skipToItem threw ${String((error as Error)?.stack ?? error)}`);
    const code = error instanceof PlaybackError ? error.errorCode : null;
    const tag = `skipToItem ${item.id}${meta ? ' with metadata' : ''}${pos !== null ? ` at ${pos}` : ''} in ${state} (playing ${String(current)}; in force: ${JSON.stringify(policies)})${stale}`;
    if (state !== 'IDLE' && state !== 'SUSPENDED' && player.currentSession) {
      if (!policies.canSkipToItem) {
        if (code !== 'ERROR_DISALLOWED_BY_POLICY')
          this.violation(
            `${tag}: canSkipToItem is off, yet ${code ?? `row ${rows[0] ?? 'none'} fired`} (docs/contract/console.md §3 ERROR_DISALLOWED_BY_POLICY)`,
          );
      } else if (pos !== null && item.id === current && !policies.canSeek) {
        if (code !== 'ERROR_DISALLOWED_BY_POLICY')
          this.violation(
            `${tag}: a seek with canSeek off, yet ${code ?? `row ${rows[0] ?? 'none'} fired`} (docs/player.md: "refused when canSeek is off")`,
          );
      } else if (code !== null) {
        this.violation(`${tag}: refused with ${code}, which no policy in force explains`);
      } else if (rows[0] !== undefined && asks !== (rows[0] === 'skip-to-item-asks-server')) {
        this.violation(
          `${tag}: row ${rows[0]} (§4.3 skipToItem: the request goes to the server "Only if limitedSkips is enabled or the command has no track metadata")`,
        );
      }
    }
    if (rows[0] === 'skip-to-item-asks-server') this.skipToItemAsking.add(item.id);
  }

  async run(action: Action): Promise<void> {
    const { h } = this;
    const player = h.player;
    switch (action.t) {
      case 'load': {
        const stub = action.stub;
        const item = action.item === null ? null : this.pick(action.item, stub);
        const first = this.stubs[stub].items[0];
        const metadata = action.meta
          ? (item?.track ?? first?.track ?? { mediaUrl: 'https://media.example/x.mp3', durationMillis: 20_000 })
          : undefined;
        const version = this.stubs[stub].version;
        const qv =
          action.qv === 'current'
            ? String(version)
            : action.qv === 'stale'
              ? String(Math.max(1, version - 1))
              : action.qv === 'bogus'
                ? '999'
                : undefined;
        const token = `Bearer token-${this.step}`;
        const params: LoadParams = {
          queueBaseUrl: this.stubs[stub].baseUrl,
          httpAuthorization: token,
          playOnCompletion: action.play,
          ...(item ? { itemId: item.id } : {}),
          ...(metadata ? { trackMetadata: metadata } : {}),
          ...(qv !== undefined ? { queueVersion: qv } : {}),
          ...(action.pos !== null ? { positionMillis: action.pos } : {}),
        };
        if (item) this.commandIds.add(item.id);
        if (qv !== undefined) this.commandVersions.add(qv);
        this.loadVersions[stub].add(qv);
        // §4.3 load: "Only if the limitedSkips playback policy is enabled or the command has no track
        // metadata" (the context the load gets: the queue's now, or one a policy edit makes meanwhile).
        const record = { params, stub, mayAsk: !metadata || !!this.stubs[stub].policies.limitedSkips, settled: false };
        this.loads.push(record);
        this.current = stub;
        this.tokens[stub].add(token);
        const loading = player.load(params);
        // The queue the player plays once the load is answered (docs/contract/console.md §5: its httpAuthorization on every request).
        loading.then(
          () => (this.owner = { stub, token }),
          () => undefined,
        );
        this.expectPlaybackError(loading, 'loadCloudQueue', record);
        break;
      }
      case 'skipNext':
      case 'skipPrev': {
        const policies = policiesInForce(player);
        const state = player.machineState;
        const allowed = action.t === 'skipNext' ? policies.canSkip : policies.canSkipBack;
        const asks = policies.limitedSkips || policies.notifyUserIntent;
        const stale = stalePolicies(player);
        const record = { settled: false };
        this.skips.push(record);
        let promise: Promise<void> | null = null;
        const rows = this.rowsOf(() => {
          try {
            promise = player.act(action.t, 'user');
          } catch (error) {
            this.violation(`act(${action.t}) threw synchronously: ${String(error)}`);
          }
        });
        if (!promise) break;
        // (A row against the policies is flagged here; the wire check counts what the rows let ask.)
        const tag = `${action.t} in ${state} (in force: ${JSON.stringify(policies)})${stale}`;
        const policy = action.t === 'skipNext' ? 'canSkip' : 'canSkipBack';
        if (rows[0] === 'skip-asks-server') this.counts[action.t]++;
        if (state !== 'IDLE' && !allowed) {
          if (rows.length > 0) this.violation(`${tag}: ${policy} is off, yet row ${rows[0]} fired`);
          this.expectPlaybackError(promise, tag, record, {
            code: 'ERROR_DISALLOWED_BY_POLICY',
            why: `${policy} is off`,
          });
          break;
        }
        if (rows[0] === 'skip-asks-server' && !asks)
          this.violation(
            `${tag}: asked the server (§4.3 skipNext/skipPrev: "Only when limitedSkips or notifyUserIntent is enabled")`,
          );
        if (rows[0] !== undefined && rows[0] !== 'skip-asks-server' && asks)
          this.violation(
            `${tag}: skipped at once by row ${rows[0]} (§4.3: with limitedSkips or notifyUserIntent "The player waits for the server's answer before allowing the skip")`,
          );
        this.expectPlaybackError(promise, action.t, record);
        break;
      }
      case 'play':
      case 'pause':
      case 'resume': {
        const policies = policiesInForce(player);
        const stale = stalePolicies(player);
        const state = player.machineState;
        if (action.t !== 'pause' && state === 'SUSPENDED') this.counts.resumeWhileSuspended++;
        let promise: Promise<void> = Promise.resolve();
        const rows = this.rowsOf(() => (promise = player.act(action.t, 'user')));
        const row = rows[0];
        // §4.3 pause/play: "Only when notifyUserIntent is enabled" (the policies in force for the playing item).
        if (row !== undefined && /^(pause|play)(-at-end(-more)?)?(-notifies)?$/.test(row)) {
          const notifies = row.endsWith('-notifies');
          if (notifies !== policies.notifyUserIntent)
            this.violation(
              `${action.t} in ${state}: row ${row} with notifyUserIntent=${policies.notifyUserIntent} in force (in force: ${JSON.stringify(policies)}; §4.3 pause/play: "Only when notifyUserIntent is enabled")${stale}`,
            );
          if (notifies) this.counts[action.t === 'pause' ? 'pause' : 'play']++;
        }
        this.expectPlaybackError(promise, action.t, { settled: false });
        break;
      }
      case 'skipToItem':
        this.skipToItem(this.pick(action.item, this.current), action.meta, action.play, action.pos);
        break;
      case 'skipFar': {
        // The item `offset` after the one the queue's last window request named (a held one, in the runs that use this).
        const items = this.stubs[this.current].items;
        const asked = this.wire.findLast(
          (r) => r.stub === this.current && r.endpoint === 'itemWindow' && r.query.itemId !== undefined,
        )?.query.itemId;
        const at = items.findIndex((item) => item.id === (asked ?? player.status().itemId));
        if (at === -1 || items.length === 0) break;
        this.skipToItem(items[Math.max(0, Math.min(items.length - 1, at + action.offset))]!, true, null, null);
        break;
      }
      case 'restart':
        this.restart();
        break;
      case 'toEnd':
        for (let i = 0; i < 40; i++) {
          const p = h.player;
          const snap = p.snapshot();
          if (snap.atEnd || (p.machineState !== 'PLAYING' && p.machineState !== 'BUFFERING')) break;
          await this.advance(
            p.machineState === 'PLAYING' && snap.track
              ? Math.max(1, (snap.track.durationMillis ?? 180_000) - snap.positionMillis + 1)
              : 1_000,
          );
          this.checkStep();
        }
        return;
      case 'policy': {
        const name = action.stub === 'current' ? this.current : action.stub;
        const stub = this.stubs[name];
        if (action.item === null) {
          // docs/contract/console.md §4: every edit (a policy too) moves queueVersion; context edits move contextVersion (queue-model.ts).
          stub.policies = { ...stub.policies, ...action.policy };
          this.servedPolicies[name].add(policyKey(stub.policies));
          stub.contextVersion++;
          stub.edit((items) => items);
          if (stub.policies.limitedSkips)
            for (const load of this.loads) if (!load.settled && load.stub === name) load.mayAsk = true;
        } else {
          const id = action.item === 'current' ? player.status().itemId : this.pick(action.item, name).id;
          stub.edit((items) =>
            items.map((item) => (item.id === id ? { ...item, policies: { ...action.policy } } : item)),
          );
        }
        break;
      }
      case 'refresh':
        this.command(() => player.refresh(), 'refreshCloudQueue');
        break;
      case 'suspend':
        this.command(() => player.suspend(), 'suspend');
        break;
      case 'newSession':
        this.command(() => void player.createSession('com.example.other', `other-${this.step}`), 'createSession');
        break;
      case 'advance':
        await this.advance(action.ms);
        return;
      case 'toTrackEnd': {
        const track = player.snapshot().track;
        const left =
          player.machineState === 'PLAYING' && track
            ? (track.durationMillis ?? 180_000) - player.status().positionMillis
            : BUFFERING_MS;
        await this.advance(Math.max(0, left + action.offset));
        return;
      }
      case 'toEdge': {
        // Track end to track end (at most 90 s), while the player moves and the edge has not come.
        const until = h.clock.now() + 90_000;
        for (let p = h.player; !p.snapshot().atEdge && h.clock.now() < until; p = h.player) {
          const snap = p.snapshot();
          if (snap.atEnd || (p.machineState !== 'PLAYING' && p.machineState !== 'BUFFERING')) break;
          const left =
            p.machineState === 'PLAYING' && snap.track
              ? (snap.track.durationMillis ?? 180_000) - snap.positionMillis + 1
              : BUFFERING_MS;
          await this.advance(Math.max(1, Math.min(left, until - h.clock.now())));
          this.checkStep();
        }
        return;
      }
      case 'edit': {
        const name = action.stub === 'current' ? this.current : action.stub;
        const stub = this.stubs[name];
        const playing = player.status().itemId;
        const duration = this.setup[name].durations[this.nextItem[name] % this.setup[name].durations.length]!;
        if (action.kind === 'context') {
          stub.contextVersion++; // the context changed (same policies): a version poll notices it
          break;
        }
        stub.edit((items) => {
          switch (action.kind) {
            case 'append':
              return [...items, this.newItem(name, duration), this.newItem(name, duration)];
            case 'removeFirst':
              return items.slice(1);
            case 'removeLast':
              return items.slice(0, -1);
            case 'removeCurrent':
              return items.filter((item) => item.id !== playing);
            case 'reverse':
              return [...items].reverse();
            case 'shortQueue':
              return Array.from({ length: 24 }, () => this.newItem(name, 3_000));
            case 'truncateAfterCurrent': {
              const at = items.findIndex((item) => item.id === playing);
              return at === -1 ? items : items.slice(0, at + 1);
            }
            case 'touch':
            case 'context':
              return items;
          }
        });
        break;
      }
      case 'script': {
        const name = action.stub === 'current' ? this.current : action.stub;
        if (action.answer === 'hold' || action.answer === 'hang') {
          this.rules.push({
            stub: name,
            endpoint: action.endpoint,
            reason: action.endpoint === 'itemWindow' ? action.reason : null,
            kind: action.answer,
            times: action.times,
          });
          break;
        }
        const answer: ScriptedAnswer =
          action.answer === 'drop'
            ? { drop: true as const }
            : action.answer === 'malformed'
              ? { status: 200, body: { items: 'not a list' } }
              : action.answer === '503'
                ? { status: 503, headers: { 'retry-after': String(action.retryAfter) } }
                : action.answer === '403'
                  ? { status: 403, headers: { 'x-rejected-reason': 'STREAM_RATE_LIMIT_REACHED' } }
                  : { status: Number(action.answer) };
        // A context answered without playbackPolicies: the player assumes every default (contract-check.ts).
        if (action.endpoint === 'context' && action.answer === 'malformed')
          this.servedPolicies[name].add(policyKey({}));
        this.stubs[name].script(action.endpoint, answer, {
          times: action.times,
          ...(action.endpoint === 'itemWindow' && action.reason ? { reason: action.reason } : {}),
        });
        break;
      }
      case 'release':
        await this.release();
        return;
    }
    await h.settle();
  }

  /** Moves the clock; checks the playhead of a state no transition left meanwhile. */
  async advance(ms: number): Promise<void> {
    const { h } = this;
    const before = {
      transitions: h.transitions.length,
      status: h.player.status(),
      state: h.player.machineState,
      track: internals(h.player).track,
    };
    await h.advance(ms);
    const after = h.player.status();
    if (
      h.transitions.length !== before.transitions ||
      internals(h.player).track !== before.track ||
      h.player.machineState !== before.state
    )
      return;
    const track = h.player.snapshot().track;
    if (!track) return; // no track: checkStep says so
    const duration = track.durationMillis ?? 180_000;
    if (before.state === 'PLAYING') {
      // states.ts: "A track plays; its playhead moves with the engine clock."
      const expected = Math.min(duration, before.status.positionMillis + ms);
      if (Math.abs(after.positionMillis - expected) > 1)
        this.violation(
          `PLAYING for ${ms} ms with no transition, yet the playhead went ${before.status.positionMillis} → ${after.positionMillis} (expected ${expected})`,
        );
    } else if (Math.abs(after.positionMillis - before.status.positionMillis) > 1) {
      this.violation(
        `${before.state} for ${ms} ms with no transition, yet the playhead moved ${before.status.positionMillis} → ${after.positionMillis}`,
      );
    }
  }

  /** A load not yet answered: a track started at once may have no item id or window yet (docs/player.md). */
  private loadPending(): boolean {
    return this.loads.some((l) => !l.settled);
  }

  private exchangeRetry(requestId: string): number | undefined {
    return this.h.exchanges.find((e) => e.requestId === requestId)?.retry;
  }

  /** Everything checked after every step. */
  checkStep(): void {
    const { h } = this;
    const player = h.player;
    const state = player.machineState;
    const status = player.status();
    const snap = player.snapshot();

    // (4) states.ts / docs/contract/console.md §5: one of the named states, and a status that agrees with it.
    if (!ALL_STATES.includes(state))
      this.violation(`machineState ${String(state)} is not one of ${ALL_STATES.join(', ')}`);
    if (status.playbackState !== playbackStateOf(state))
      this.violation(`status().playbackState ${status.playbackState} for machine state ${state}`);
    if (status.suspended !== (state === 'SUSPENDED'))
      this.violation(`status().suspended ${status.suspended} in ${state}`);
    if (state === 'IDLE') {
      // docs/contract/platform.md §3: PLAYBACK_STATE_IDLE, "player has no active queue".
      if (status.itemId !== null || status.queueVersion !== null || snap.track !== null || snap.window !== null) {
        this.violation(
          `IDLE yet status/snapshot holds a queue: ${JSON.stringify({ itemId: status.itemId, queueVersion: status.queueVersion, track: snap.track?.id })}`,
        );
      }
    } else {
      if (!snap.track || !snap.queueBaseUrl) {
        this.violation(`${state} without a track or a queue (status ${JSON.stringify(status)})`);
        return this.checkWire();
      }
      // docs/player.md: a track a load started at once has no item id (nor a window) until a load is answered.
      if (status.itemId === null && !this.loadPending()) this.violation(`${state} with no itemId and no load pending`);
      if (status.queueVersion === null && !this.loadPending())
        this.violation(`${state} with no queueVersion and no load pending`);
      if (status.itemId === 'pending') this.violation(`status() shows the placeholder itemId 'pending'`);
      const duration = snap.track?.durationMillis ?? 180_000;
      if (status.positionMillis < 0 || status.positionMillis > duration)
        this.violation(`positionMillis ${status.positionMillis} outside 0..${duration}`);
      if (state === 'PLAYING' && (snap.atEnd || snap.atEdge))
        this.violation(`PLAYING with atEnd=${snap.atEnd} atEdge=${snap.atEdge}`);
      if (snap.atEnd && state !== 'PAUSED' && state !== 'SUSPENDED')
        this.violation(`atEnd (the queue ended) in ${state}`);
    }

    // docs/contract/platform.md §3 row 3: a suspended session plays again only through an explicit resume (reason=resume), or a new load.
    for (; this.checkedTransitions < h.transitions.length; this.checkedTransitions++) {
      const t = h.transitions[this.checkedTransitions]!;
      // (A restart is checked by itself: `restart`.)
      if (
        t.from === 'SUSPENDED' &&
        (t.to === 'PLAYING' || t.to === 'BUFFERING') &&
        !t.transition.startsWith('resume-answered') &&
        !t.transition.startsWith('load-') &&
        t.transition !== 'model-restart'
      ) {
        this.violation(`SUSPENDED → ${t.to} by row ${t.transition}, not by a resume`);
      }
    }

    // docs/contract/platform.md §3 row 2: Paused → pauseTtlSec passes → Suspended. From the last row that paused the
    // player and armed the timer (or a restart that put it back paused), with the pauseTtlSec in
    // force then (the playing item's own over the queue's).
    const into = state === 'PAUSED' ? h.transitions.findLast((t) => this.pausedAt.has(t)) : undefined;
    const paused = into ? this.pausedAt.get(into) : undefined;
    const ttl = paused?.ttl;
    if (into && ttl !== undefined && h.clock.now() - into.at > ttl * 1_000 + 1) {
      const failedLoad = h.transitions.some((t) => t.transition === 'load-failed' && t.at >= into.at);
      this.violation(
        `PAUSED for ${(h.clock.now() - into.at) / 1_000} s since row ${into.transition} (a load failed since: ${failedLoad ? 'yes' : 'no'}), past pauseTtlSec=${ttl} in force then (the player's now: ${String(snap.policies?.pauseTtlSec)}), and not suspended${paused!.note}`,
      );
    }

    // The queue's policies the player acts on are ones its server served (docs/contract/console.md §4 GET /context).
    const queue = internals(player).queue;
    if (queue) {
      const stub = this.stubOf(new URL(queue.target.queueBaseUrl));
      if (stub !== '?' && !this.servedPolicies[stub].has(policyKey(queue.policies)))
        this.violation(
          `the player acts on context policies ${JSON.stringify(queue.policies)} that ${stub} never served`,
        );
    }

    this.checkWire();
  }

  private checkedWire = 0;
  private checkedExchanges = 0;
  private checkedTransitions = 0;
  private readonly finals = new Map<number, number>();
  private readonly lastReport = new Map<number, SentReport>();
  private readonly requestIds = new Set<string>();

  /** Checks of each request as sent (once each), and of the reports per playback. */
  private checkWire(): void {
    for (; this.checkedWire < this.wire.length; this.checkedWire++) {
      const r = this.wire[this.checkedWire]!;
      // Checked in send order once its outcome is known (a retry resends a request: its first try counts).
      if (this.exchangeRetry(r.requestId) === undefined) break;
      const where = `${r.method} ${r.endpoint}${r.query.reason ? ` reason=${r.query.reason}` : ''} to ${r.stub} (#${r.seq})`;
      if (r.stub === '?') this.violation(`${where}: sent to no stub server`);
      // docs/contract/console.md §5: X-Player-Id and a per-request X-Request-Id.
      if (!r.headers['x-player-id'] || !r.requestId) this.violation(`${where}: no X-Player-Id or X-Request-Id`);
      if (this.requestIds.has(r.requestId)) this.violation(`${where}: X-Request-Id ${r.requestId} used twice`);
      this.requestIds.add(r.requestId);
      const known = r.stub === '?' ? new Map<string, Track>() : this.everItems[r.stub];
      if (r.endpoint === 'itemWindow') {
        const { reason, itemId, previousWindowSize, upcomingWindowSize, queueVersion } = r.query;
        // (3) docs/contract/platform.md §2.4/§4.3: reason is one of the values listed (or the v2.2 combination).
        if (reason === undefined || !SEED_REASONS.includes(reason))
          this.violation(`${where}: reason ${String(reason)} is not one the seed allows`);
        // docs/contract/platform.md §4.3/§8: window sizes are integers, zero or greater.
        for (const [name, value] of [
          ['previousWindowSize', previousWindowSize],
          ['upcomingWindowSize', upcomingWindowSize],
        ] as const) {
          if (value !== undefined && !/^\d+$/.test(value))
            this.violation(`${where}: ${name}=${value} is not an integer ≥ 0`);
        }
        // (2) no placeholder or empty itemId; an itemId is one of this queue's (or a command's).
        if (
          itemId !== undefined &&
          (itemId === '' || itemId === 'pending' || (!known.has(itemId) && !this.commandIds.has(itemId)))
        ) {
          this.violation(
            `${where}: itemId=${JSON.stringify(itemId)} is neither an item of that queue nor one a command named`,
          );
        }
        // queueVersion, when sent, is one the server issued or a command named (docs/contract/console.md §4).
        if (
          queueVersion !== undefined &&
          r.stub !== '?' &&
          !this.commandVersions.has(queueVersion) &&
          !(Number(queueVersion) >= 1 && Number(queueVersion) <= this.stubs[r.stub].version)
        ) {
          this.violation(
            `${where}: queueVersion=${queueVersion} was never issued by that server nor named by a command`,
          );
        }
        // docs/contract/platform.md §4.3 pause/play ("Only when notifyUserIntent is enabled") and skipNext/skipPrev ("Only
        // when limitedSkips or notifyUserIntent is enabled"): checked per action against the policies
        // in force (run), and counted below.
        if (r.stub !== '?') {
          // docs/contract/platform.md §4.3 skipToItem: the request carries the itemId from a command that asks the server.
          if (reason === 'skipToItem' && (itemId === undefined || !this.skipToItemAsking.has(itemId)))
            this.violation(
              `${where}: reason=skipToItem for itemId=${String(itemId)}, which no skipToItem command (limitedSkips or no metadata) named`,
            );
          // docs/contract/platform.md §3 row 3 / §4.3 resume: only for an explicit resume of a suspended session.
          if (reason === 'resume' && this.counts.resumeWhileSuspended === 0)
            this.violation(`${where}: reason=resume, yet no play/resume was ever asked of a suspended session`);
          // docs/player.md: "The first window of a load carries the command's queueVersion".
          if ((reason === 'load' || reason === 'load+queueCompleted') && !this.loadVersions[r.stub].has(queueVersion)) {
            this.violation(
              `${where}: a load's first window with queueVersion=${String(queueVersion)}, which no load of that queue named`,
            );
          }
        }
      }
      if (r.endpoint === 'timePlayed') {
        if (r.reports.length === 0) this.violation(`${where}: a report request with no items`);
        for (const report of r.reports) this.checkReport(r, report, known, where);
      }
    }

    // Counts over first tries only (retries repeat the same request).
    const firstTries = this.wire.filter((r) => r.endpoint === 'itemWindow' && this.exchangeRetry(r.requestId) === 0);
    const countOf = (reason: string, stub?: StubName) =>
      firstTries.filter((r) => r.query.reason === reason && (stub === undefined || r.stub === stub)).length;
    if (countOf('pause') > this.counts.pause)
      this.violation(
        `${countOf('pause')} reason=pause requests for ${this.counts.pause} pause actions with notifyUserIntent in force`,
      );
    if (countOf('play') > this.counts.play)
      this.violation(
        `${countOf('play')} reason=play requests for ${this.counts.play} play/resume actions with notifyUserIntent in force (§4.3: not sent when playback starts from a load or skipToItem)`,
      );
    if (countOf('skipNext') > this.counts.skipNext)
      this.violation(
        `${countOf('skipNext')} reason=skipNext requests for ${this.counts.skipNext} skips with limitedSkips or notifyUserIntent in force`,
      );
    if (countOf('skipPrev') > this.counts.skipPrev)
      this.violation(
        `${countOf('skipPrev')} reason=skipPrev requests for ${this.counts.skipPrev} skips with limitedSkips or notifyUserIntent in force`,
      );
    for (const stub of ['A', 'B'] as const) {
      const loads = countOf('load', stub) + countOf('load+queueCompleted', stub);
      const asking = this.loads.filter((l) => l.stub === stub && l.mayAsk).length;
      if (loads > asking)
        this.violation(
          `${loads} reason=load requests to ${stub} for ${asking} loads that may send one (§4.3: only with limitedSkips or without metadata)`,
        );
    }

    // §7.1/§7.2/§7.4: a retry follows a failure that may be retried (incomplete, 503), at most 3
    // times, and when the table says: background requests 10 s after the try before (§7.4.2);
    // others 2 s after an incomplete one, Retry-After clamped to 2–10 s after a 503 (§7.2).
    for (; this.checkedExchanges < this.h.exchanges.length; this.checkedExchanges++) {
      const e = this.h.exchanges[this.checkedExchanges]!;
      if (e.retry === 0) continue;
      const where = `${e.endpoint}${e.reason ? ` reason=${e.reason}` : ''} retry ${e.retry} at ${e.startedAt - T0}`;
      if (e.retry > 3) this.violation(`${where}: more than 3 retries`);
      const background =
        e.endpoint === 'version' ||
        e.endpoint === 'context' ||
        (e.endpoint === 'itemWindow' && ['refresh', 'queueCompleted', 'skipToItem'].includes(e.reason ?? ''));
      const due = (f: (typeof this.h.exchanges)[number]): number => {
        if (background) return f.startedAt + 10_000;
        const wait =
          f.failure?.kind === 'unavailable' ? Math.min(10, Math.max(2, f.failure.retryAfterSec ?? 2)) * 1_000 : 2_000;
        return f.startedAt + f.durationMs + wait;
      };
      const tries = this.h.exchanges.filter(
        (f) =>
          f.endpoint === e.endpoint && f.reason === e.reason && f.retry === e.retry - 1 && f.startedAt < e.startedAt,
      );
      const retryable = tries.filter((f) => f.failure?.kind === 'incomplete' || f.failure?.kind === 'unavailable');
      if (retryable.length === 0)
        this.violation(
          `${where}: no earlier try that failed incomplete or with 503 (§7.1: 500 and 404 are not retried)`,
        );
      else if (!retryable.some((f) => Math.abs(due(f) - e.startedAt) <= 1)) {
        this.violation(
          `${where}: sent ${retryable.map((f) => e.startedAt - f.startedAt).join('/')} ms after the try before, not when ${background ? '§7.4.2' : '§7.2'} says (${retryable.map((f) => due(f) - f.startedAt).join('/')} ms)`,
        );
      }
    }
  }

  private checkReport(r: WireRequest, report: SentReport, known: Map<string, Track>, where: string): void {
    const pb = report.__playback;
    const tag = `${where}: ${report.type} report of ${report.id} (playback ${String(pb)})`;
    // (2) docs/contract/platform.md §2.3 id: "Queue id of the item that played": never the placeholder, one of this queue's.
    if (report.id === 'pending') this.violation(`${tag}: the placeholder id 'pending' on the wire`);
    else if (!report.id || (!known.has(report.id) && !this.commandIds.has(report.id)))
      this.violation(`${tag}: id is not an item of the queue it was sent to`);
    // docs/contract/platform.md §2.3 type: `final` or `update`; `skip` only on a final.
    if (report.type !== 'final' && report.type !== 'update')
      this.violation(`${tag}: type ${report.type} is neither final nor update`);
    if (report.skip !== undefined && report.type !== 'final')
      this.violation(`${tag}: skip on a report that is not final`);
    if (typeof report.queueVersion !== 'string') this.violation(`${tag}: queueVersion is not a string`);
    else if (
      report.queueVersion !== '' &&
      r.stub !== '?' &&
      !(Number(report.queueVersion) >= 1 && Number(report.queueVersion) <= this.stubs[r.stub].version)
    ) {
      this.violation(
        `${tag}: queueVersion ${report.queueVersion} was never a version of that queue (§2.3: the version of the last item window fetched)`,
      );
    }
    for (const field of [
      'durationPlayedMillis',
      'timeSincePlaybackMillis',
      'positionMillis',
      'positionMillisAtSegmentStart',
    ] as const) {
      if (!Number.isInteger(report[field]) || report[field] < 0) this.violation(`${tag}: ${field}=${report[field]}`);
    }
    // §2.3: played time cannot exceed the time since the playback started.
    if (report.durationPlayedMillis > report.timeSincePlaybackMillis + 1)
      this.violation(
        `${tag}: durationPlayedMillis ${report.durationPlayedMillis} > timeSincePlaybackMillis ${report.timeSincePlaybackMillis}`,
      );
    const track = known.get(report.id);
    if (track?.durationMillis !== undefined && report.positionMillis > track.durationMillis)
      this.violation(`${tag}: positionMillis ${report.positionMillis} past the track's ${track.durationMillis}`);
    if (pb === undefined) return this.violation(`${tag}: no playback tag`);
    // Only first tries count: a retry resends the same report.
    if (this.exchangeRetry(r.requestId)! > 0) return;
    const previous = this.lastReport.get(pb);
    // (1) docs/contract/platform.md §2.3 rule 2: one final per playback; nothing after it.
    if (this.finals.has(pb))
      this.violation(
        `${tag}: sent after that playback's final report (#${this.finals.get(pb)})${this.endedWithoutWindow.has(pb) ? ' (it ended with no window)' : ''}`,
      );
    if (report.type === 'final') this.finals.set(pb, r.seq);
    // docs/contract/platform.md §2.3: durationPlayedMillis is cumulative within one playback; timeSincePlaybackMillis runs on.
    if (
      previous &&
      (report.durationPlayedMillis < previous.durationPlayedMillis ||
        report.timeSincePlaybackMillis < previous.timeSincePlaybackMillis)
    ) {
      this.violation(
        `${tag}: went back from ${previous.durationPlayedMillis}/${previous.timeSincePlaybackMillis} to ${report.durationPlayedMillis}/${report.timeSincePlaybackMillis} (played/since)`,
      );
    }
    if (previous && previous.id !== report.id)
      this.violation(`${tag}: the same playback was reported as ${previous.id} before`);
    this.lastReport.set(pb, report);
  }

  /**
   * After 40 healthy minutes and 11 more playing or paused (version polls every 5–10 minutes, §8):
   * the player acts on the policies its server serves now. docs/contract/platform.md §4.3 GET /version: "If the version
   * changed, the player follows with GET /itemWindow"; a new contextVersion is fetched again (every
   * policy edit moves both, docs/contract/console.md §4). docs/player.md "Policies": the queue's, with the playing item's
   * own over them.
   */
  checkPoliciesFresh(): void {
    const player = this.h.player;
    const queue = internals(player).queue as (PlayerInternals['queue'] & { contextVersion?: string }) | null;
    const itemId = player.status().itemId;
    // A context answered without contextVersion (a malformed one) leaves nothing to compare a poll's with.
    if (!queue || itemId === null || queue.contextVersion === undefined) return;
    const name = this.stubOf(new URL(queue.target.queueBaseUrl));
    if (name === '?') return;
    const stub = this.stubs[name];
    if (policyKey(queue.policies) !== policyKey(stub.policies)) {
      return this.violation(
        `after 11 minutes of version polls the player acts on context policies ${JSON.stringify(queue.policies)}; ${name} serves ${JSON.stringify(stub.policies)} (contextVersion ${stub.contextVersion})`,
      );
    }
    const item = stub.items.find((i) => i.id === itemId);
    const held = internals(player).window;
    if (!item || held?.queueVersion !== String(stub.version)) return;
    const expected = { ...DEFAULT_POLICIES, ...stub.policies, ...item.policies };
    const acting = player.snapshot().policies;
    if (acting && policyKey(acting) !== policyKey(expected)) {
      this.violation(
        `playing ${itemId} with the window of version ${held.queueVersion}, the player acts on ${JSON.stringify(acting)}, not the policies in force ${JSON.stringify(expected)} (the item's own: ${JSON.stringify(item.policies ?? {})})${stalePolicies(player)}`,
      );
    }
  }

  /** After the long healthy run-out: nothing waits for ever, every ended playback had its final. */
  checkEnd(): void {
    const { h } = this;
    const player = h.player;
    const inner = internals(player);
    const snap = player.snapshot();
    if (this.loads.some((l) => !l.settled))
      this.violation(`a loadCloudQueue never answered (${this.loads.filter((l) => !l.settled).length})`);
    if (this.skips.some((s) => !s.settled)) this.violation(`a user skip never answered`);
    if (this.checkedWire < this.wire.length)
      this.violation(`a request never ended: ${JSON.stringify(this.wire[this.checkedWire])}`);
    if (player.machineState === 'BUFFERING')
      this.violation(`still BUFFERING after a long healthy run (atEdge=${snap.atEdge})`);
    if (snap.retrying.length > 0) this.violation(`still waiting to retry: ${JSON.stringify(snap.retrying)}`);
    if (inner.untilFirstWindow.length > 0 || inner.reportsUntilFirstWindow.length > 0) {
      this.violation(
        `requests (${inner.untilFirstWindow.length}) or reports (${inner.reportsUntilFirstWindow.length}) still wait for a first window that will never come`,
      );
    }
    // docs/contract/platform.md §2.3 rule 2: "A final report is posted once after each track finishes playing or is
    // skipped." A playback that started and is no longer the player's gets one, unless its queue
    // was dropped by a failing server or a 404 (docs/player.md), or it never got an item id.
    const current = inner.track ? playbackId(inner.track) : null;
    for (const [id, playback] of this.playbacks) {
      if (id === current || this.finals.has(id) || this.dropped.has(id) || playback.item.id === 'pending') continue;
      const held = this.heldCutOffs.get(id);
      const dropped = this.heldDropped.get(id);
      const abandoned = this.abandonedByRestart.get(id);
      this.violation(
        `playback ${id} of ${playback.item.id} started, ended, and never got a final report${held ? ` (cut off by a started-at-once load; the load holding its final ended with row ${held})` : ''}${dropped ? ` (its final, held for a first window, was dropped: ${dropped})` : ''}${abandoned ? ` (a restart at step ${abandoned} left it behind: the load that started it at once counts as failed)` : ''}`,
      );
    }
  }
}

// ------------------------------------------------------------------ the property

const RUNS = Number(process.env.MODEL_RUNS ?? 150);
const SEED = Number(process.env.MODEL_SEED ?? 20_240_611);

async function runModel(setup: Setup, actions: Action[]): Promise<World> {
  const w = new World(setup);
  world = w;
  await w.start();
  try {
    for (const action of actions) {
      w.step++;
      w.log.push(JSON.stringify(action));
      await w.run(action);
      w.checkStep();
      if (w.violations.length > 0) return w;
    }
    // The run-out: no failures scripted, held answers released, 40 minutes on the clock.
    w.step++;
    w.log.push('run-out');
    w.rules.splice(0);
    for (const stub of Object.values(w.stubs)) (stub as unknown as { scripts: unknown[] }).scripts = [];
    await w.release();
    for (let i = 0; i < 40 && w.violations.length === 0; i++) {
      await w.advance(60_000);
      w.checkStep();
    }
    if (w.violations.length > 0) return w;
    w.checkEnd();
    if (w.violations.length > 0) return w;
    // docs/contract/platform.md §8: the version is polled every 5 minutes paused, every 10 playing.
    const state = w.h.player.machineState;
    const transitions = w.h.transitions.length;
    const polls = w.wire.filter((r) => r.endpoint === 'version').length;
    await w.advance(11 * 60_000);
    const stayed = w.h.transitions
      .slice(transitions)
      .every((t) => t.to === 'PLAYING' || t.to === 'PAUSED' || t.to === 'BUFFERING');
    if (
      (state === 'PLAYING' || state === 'PAUSED') &&
      w.h.player.snapshot().queueBaseUrl !== null &&
      stayed &&
      w.wire.filter((r) => r.endpoint === 'version').length === polls
    ) {
      w.violation(`${state} for 11 minutes with a queue and no GET /version`);
    }
    if ((state === 'PLAYING' || state === 'PAUSED') && stayed) w.checkPoliciesFresh();
    w.checkStep();
    return w;
  } finally {
    await w.close();
    world = null;
  }
}

/** Often: the window request a long queue of short tracks asks for is held, and the player plays on to the window's edge. */
const preludeArb: fc.Arbitrary<Action[]> = fc.oneof(
  fc.constant<Action[]>([]),
  fc
    .record({
      reason: fc.constantFrom(null, 'refresh', 'queueCompleted'),
      answer: fc.constantFrom('hold' as const, 'hang' as const),
      times: fc.integer({ min: 1, max: 6 }),
    })
    .map(({ reason, answer, times }): Action[] => [
      { t: 'script', stub: 'current', endpoint: 'itemWindow', reason, answer, retryAfter: 1, times },
      { t: 'toEdge' },
    ]),
);

const stats = { runs: 0, requests: 0, reports: 0, retries: 0, rows: new Map<string, number>() };

const setupArb: fc.Arbitrary<Setup> = fc.record({ A: queueSetupArb, B: queueSetupArb });

describe('the player against a model of the seed (randomized)', () => {
  beforeAll(instrument);
  afterAll(uninstrument);

  // MODEL_CASE='{"setup":…,"actions":[…]}' replays one case, printing what it saw.
  it.runIf(!!process.env.MODEL_CASE)(
    'replays MODEL_CASE',
    async () => {
      const { setup, actions } = JSON.parse(process.env.MODEL_CASE!) as {
        setup: Partial<Record<StubName, Partial<QueueSetup>>>;
        actions: Action[];
      };
      const base: QueueSetup = {
        durations: [3_000],
        limitedSkips: false,
        notifyUserIntent: false,
        pauseTtlSec: undefined,
        canSeek: true,
        canSkip: true,
        canSkipBack: true,
        canSkipToItem: true,
        itemPolicies: [],
        sendUpdateAfterMillis: undefined,
        periodicIntervalMillis: undefined,
        sendPlaybackActions: false,
      };
      const w = await runModel({ A: { ...base, ...setup.A }, B: { ...base, ...setup.B } }, actions);
      console.warn(
        w.h.transitions
          .map((t) => `${t.at - T0} ${t.from}→${t.to} ${t.transition}${t.detail ? ` (${t.detail})` : ''}`)
          .join('\n'),
      );
      console.warn(
        w.wire
          .map(
            (r) =>
              `${r.at - 1_800_000_000_000} ${r.stub} ${r.endpoint} ${r.query.reason ?? ''} ${r.query.itemId ?? ''} ${r.reports.map((x) => `${x.type}:${x.id}:${x.__playback}`).join(',')}`,
          )
          .join('\n'),
      );
      expect(w.violations).toEqual([]);
    },
    60_000,
  );

  it(
    'keeps every invariant through random commands, user actions, clock moves, edits and failures',
    async () => {
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(setupArb, loadArb, preludeArb, restArb, async (setup, load, prelude, rest) => {
          const actions: Action[] = [load, ...prelude, ...rest];
          const w = await runModel(setup, actions);
          if (process.env.MODEL_DEBUG) {
            stats.runs++;
            for (const row of w.h.rows())
              if (row !== 'model-restart') stats.rows.set(row, (stats.rows.get(row) ?? 0) + 1);
            stats.requests += w.wire.length;
            stats.reports += w.wire.filter((r) => r.endpoint === 'timePlayed').length;
            stats.retries += w.h.exchanges.filter((e) => e.retry > 0).length;
          }
          if (w.violations.length > 0)
            throw new Error(
              `${w.violations.join('\n')}\nsteps:\n${w.log.map((l, i) => `  ${i + 1}. ${l}`).join('\n')}`,
            );
        }),
        {
          numRuns: RUNS,
          seed: SEED,
          ...(process.env.MODEL_PATH ? { path: process.env.MODEL_PATH } : {}),
          interruptAfterTimeLimit: Math.max(100_000, RUNS * 600),
          markInterruptAsFailure: false,
        },
      );
      console.warn(`model: ${RUNS} runs in ${Date.now() - started} ms`);
      if (process.env.MODEL_DEBUG) {
        console.warn(JSON.stringify({ ...stats, rows: Object.fromEntries([...stats.rows].sort()) }));
        console.warn(
          'rows never hit:',
          TRANSITIONS.map((t) => t.id)
            .filter((id) => !stats.rows.has(id))
            .join(' '),
        );
      }
    },
    Math.max(240_000, RUNS * 1_000),
  );
});
