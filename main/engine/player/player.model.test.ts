/**
 * A model-based, randomized test of the simulated player (player.ts). fast-check generates a
 * queue set-up for two stub cloud queue servers (A and B, with disjoint item ids, random track
 * lengths and policies) and a sequence of commands (loadCloudQueue with or without
 * playOnCompletion, itemId, track metadata, queueVersion; skipToItem; refreshCloudQueue; suspend;
 * a new session), user actions (play, pause, resume, skips), engine-clock moves (small, to a
 * track's end, to the window's edge, minutes), queue edits (new versions) and scripted server
 * answers (503 with Retry-After, 404, 500, 401, 403, malformed, dropped, held then released,
 * hanging). After every step, and after a 40-minute healthy run-out, it checks:
 *
 *  1. Reports (seed §2.3): per playback at most one `final` and nothing after it; type `final`
 *     or `update`, `skip` only on a final; cumulative fields never go back; durationPlayedMillis
 *     ≤ timeSincePlaybackMillis; queueVersion one the server issued. After the run-out every
 *     playback that started and ended has its final ("posted once after each track finishes
 *     playing or is skipped"), unless its queue was dropped by a failing server or a 404 (README).
 *  2. Ids (seed §2.3 `id`, §4.3 itemId, §7.1 404): never the placeholder `pending` or empty, on
 *     the wire or in status(); an item id sent to a queue is one of its items or one a command named.
 *  3. GET /itemWindow (seed §2.4, §4.3, §8, §9.3): a listed reason; window sizes integers ≥ 0;
 *     pause/play only with notifyUserIntent, skipNext/skipPrev only with limitedSkips or
 *     notifyUserIntent, each no more often than the user asked; skipToItem only for a command
 *     that asks the server, with its itemId; load only for loads with limitedSkips or without
 *     metadata, carrying the command's queueVersion (README); resume only after a resume of a
 *     suspended session. Retries (§7.1, §7.2, §7.4): only after an incomplete try or a 503, at
 *     most 3, background ones 10 s after the try before, others 2 s / Retry-After clamped 2–10 s.
 *     Requests go to the queue playing or one being loaded, with its httpAuthorization (CONTRACT
 *     §5), none but reports from an idle player (§3), fresh X-Request-Id, X-Player-Id.
 *  4. State (states.ts, seed §3): machineState is a named state; status() agrees with it; IDLE
 *     holds no queue, every other state a track, an item id and a version (except while a load
 *     is pending: a track started at once has none yet, README); the playhead within the track,
 *     moving exactly with the clock while PLAYING and not at all otherwise; never PLAYING while
 *     parked at the queue's end or the window's edge; paused longer than pauseTtlSec → suspended (§3 row 2); out of suspension only by a
 *     resume or a load (§3 row 3); a pause "as at the end of the queue" only when the window says
 *     the queue ends or retries ran out (§4.3 queueCompleted, §7.4.3).
 *  5. Liveness: nothing throws (unhandled rejections, timer errors); after the healthy run-out
 *     every load and user skip was answered, every request ended, nothing is buffering, waiting
 *     to retry, or held for a first window that will never come; a paused or playing queue
 *     polls /version within 11 minutes (§8).
 *
 * The wire is seen at the player's own transport (send order, engine time, each retry), and each
 * report carries the playback it belongs to: TrackPlayback.report is wrapped to add a
 * `__playback` serial (the stub ignores unknown fields). Held and hanging answers are made at the
 * transport and released from the clock's settle, so a run costs no wall-clock waits. A few
 * private fields of the player are read (the current track, what waits for a first window).
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
import { fetchTransport, type HttpRequest, type HttpResponse, type HttpTransport } from './client.js';
import { PlaybackError } from './errors.js';
import type { LoadParams, SkipToItemParams } from './events.js';
import { Player } from './player.js';
import { ALL_STATES, playbackStateOf } from './states.js';
import { TrackPlayback } from './track-playback.js';
import { TRANSITIONS } from './transitions.js';
import type { QueueItem, Track } from './wire.js';

// ------------------------------------------------------------------ the yardstick (seed text)

/** Seed §2.4 and §4.3 (with the v2.2 combination, §9.3). */
const SEED_REASONS = ['load', 'pause', 'play', 'queueCompleted', 'refresh', 'resume', 'skipNext', 'skipPrev', 'skipToItem', 'load+queueCompleted'];

// ------------------------------------------------------------------ generated input

type StubName = 'A' | 'B';
type ItemRef = number | 'gone';

interface QueueSetup {
  durations: number[];
  limitedSkips: boolean;
  notifyUserIntent: boolean;
  pauseTtlSec: number | undefined;
  canSeek: boolean;
  sendUpdateAfterMillis: number | undefined;
  periodicIntervalMillis: number | undefined;
  sendPlaybackActions: boolean;
}

interface Setup {
  A: QueueSetup;
  B: QueueSetup;
}

type Action =
  | { t: 'load'; stub: StubName; play: boolean; item: ItemRef | null; meta: boolean; qv: 'none' | 'current' | 'stale' | 'bogus'; pos: number | null }
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
  | { t: 'edit'; stub: StubName | 'current'; kind: 'append' | 'removeFirst' | 'removeCurrent' | 'removeLast' | 'reverse' | 'touch' | 'context' }
  | { t: 'script'; stub: StubName | 'current'; endpoint: 'itemWindow' | 'version' | 'context' | 'timePlayed'; reason: string | null; answer: '503' | '404' | '500' | '401' | '403' | 'malformed' | 'drop' | 'hold' | 'hang'; retryAfter: number; times: number }
  | { t: 'release' };

const queueSetupArb: fc.Arbitrary<QueueSetup> = fc.record({
  durations: fc.oneof(
    fc.array(fc.constantFrom(3_000, 3_000, 20_000, 45_000, 180_000), { minLength: 1, maxLength: 30, size: 'max' }),
    // Long queues of short tracks: the window's edge (seed §4.3 Next Window) comes within seconds.
    fc.array(fc.constantFrom(3_000, 5_000), { minLength: 17, maxLength: 30, size: 'max' }),
  ),
  limitedSkips: fc.boolean(),
  notifyUserIntent: fc.boolean(),
  pauseTtlSec: fc.constantFrom(undefined, 5, 30, 120),
  canSeek: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  sendUpdateAfterMillis: fc.constantFrom(undefined, 1_000, 10_000),
  periodicIntervalMillis: fc.constantFrom(undefined, 0, 5_000, 30_000),
  sendPlaybackActions: fc.boolean(),
});

const itemRefArb: fc.Arbitrary<ItemRef> = fc.oneof({ weight: 9, arbitrary: fc.nat(15) }, { weight: 1, arbitrary: fc.constant('gone' as const) });
const stubArb: fc.Arbitrary<StubName> = fc.oneof({ weight: 3, arbitrary: fc.constant('A' as const) }, { weight: 1, arbitrary: fc.constant('B' as const) });

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
    arbitrary: fc.record({ t: fc.constant('skipToItem' as const), item: itemRefArb, meta: fc.boolean(), play: fc.option(fc.boolean()), pos: fc.option(fc.constantFrom(0, 5_000)) }),
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
      ms: fc.constantFrom(100, BUFFERING_MS, 1_000, 2_000, 2_500, 3_000, 5_000, 10_000, 20_000, 30_000, 60_000, 180_000, 300_000, 600_000),
    }),
  },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('toTrackEnd' as const), offset: fc.constantFrom(-500, 0, 1, 500) }) },
  { weight: 3, arbitrary: fc.constant({ t: 'toEdge' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('edit' as const),
      stub: fc.constantFrom('current' as const, 'A' as const, 'B' as const),
      kind: fc.constantFrom('append' as const, 'removeFirst' as const, 'removeCurrent' as const, 'removeLast' as const, 'reverse' as const, 'touch' as const, 'context' as const),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('script' as const),
      stub: fc.constantFrom('current' as const, 'current' as const, 'current' as const, 'A' as const, 'B' as const),
      endpoint: fc.constantFrom('itemWindow' as const, 'itemWindow' as const, 'itemWindow' as const, 'itemWindow' as const, 'version' as const, 'context' as const, 'context' as const, 'timePlayed' as const),
      reason: fc.option(fc.constantFrom('refresh', 'refresh', 'refresh', 'load', 'skipToItem', 'skipNext', 'skipPrev', 'queueCompleted', 'resume', 'pause', 'play'), { freq: 3 }),
      answer: fc.constantFrom('503' as const, '503' as const, '404' as const, '500' as const, '401' as const, '403' as const, 'malformed' as const, 'drop' as const, 'hold' as const, 'hold' as const, 'hold' as const, 'hang' as const),
      retryAfter: fc.constantFrom(1, 3, 20),
      times: fc.integer({ min: 1, max: 6 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ t: 'release' as const }) },
);

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

type PlayerInternals = {
  track: TrackPlayback | null;
  loading: unknown;
  skipping: unknown;
  untilFirstWindow: unknown[];
  reportsUntilFirstWindow: unknown[];
  dispatch: (event: { type: string }, meta?: unknown) => { id: string } | undefined;
  leaveRequests: (why: string) => void;
};
const internals = (player: Player) => player as unknown as PlayerInternals;

/** Rows that drop the queue because its server failed or answered 404 (README: no final then). */
const DROPPING_ROWS = ['window-not-found', 'session-not-found', 'foreground-failed'];

const originals = {
  report: TrackPlayback.prototype.report,
  play: TrackPlayback.prototype.play,
  dispatch: (Player.prototype as unknown as PlayerInternals).dispatch,
  leaveRequests: (Player.prototype as unknown as PlayerInternals).leaveRequests,
  consoleError: console.error,
};
const onUnhandled = (reason: unknown) => world?.violation(`unhandled rejection: ${String((reason as Error)?.stack ?? reason)}`);

function instrument(): void {
  TrackPlayback.prototype.report = function (this: TrackPlayback, ...args: Parameters<TrackPlayback['report']>) {
    return { ...originals.report.apply(this, args), __playback: playbackId(this) } as ReturnType<TrackPlayback['report']>;
  };
  TrackPlayback.prototype.play = function (this: TrackPlayback, now: number) {
    world?.playbacks.set(playbackId(this), this);
    return originals.play.call(this, now);
  };
  (Player.prototype as unknown as PlayerInternals).dispatch = function (this: PlayerInternals, event, meta) {
    const before = this.track;
    const loading = this.loading as { cutOffs: { report: { __playback?: number } }[] } | null;
    const row = originals.dispatch.call(this, event, meta);
    if (row && before && DROPPING_ROWS.includes(row.id)) world?.dropped.add(playbackId(before));
    // Seed §4.3 queueCompleted: "With no more tracks, the player pauses after the current audio ends."
    const window = (this as unknown as { window: { includesEndOfQueue: boolean } | null; draining: boolean }).window;
    if (row?.id === 'track-ends-last' && !(this as unknown as { draining: boolean }).draining && !window?.includesEndOfQueue) {
      if (this.track) world?.endedWithoutWindow.add(playbackId(this.track));
      world?.violation(`a track ended and the player paused as at the end of the queue, with ${window ? 'a window that says the queue goes on' : 'no window at all'}`);
    }
    // Told apart in the message: the final reports a started-at-once load held for the tracks it cut off.
    if (row && loading && this.loading !== loading && !row.id.startsWith('load-answered')) {
      for (const cut of loading.cutOffs) if (cut.report.__playback) world?.heldCutOffs.set(cut.report.__playback, row.id);
    }
    return row;
  };
  (Player.prototype as unknown as PlayerInternals).leaveRequests = function (this: PlayerInternals, why: string) {
    // Told apart in the message: reports held for a first window when the player leaves them.
    for (const held of this.reportsUntilFirstWindow as { prepared: { report: { __playback?: number; type: string } } }[]) {
      if (held.prepared.report.type === 'final' && held.prepared.report.__playback) world?.heldDropped.set(held.prepared.report.__playback, why);
    }
    return originals.leaveRequests.call(this, why);
  };
  console.error = (...args: unknown[]) => {
    world?.violation(`console.error (a timer callback threw?): ${args.map((a) => String((a as Error)?.stack ?? a)).join(' ')}`);
    originals.consoleError(...args);
  };
  process.on('unhandledRejection', onUnhandled);
}

function uninstrument(): void {
  TrackPlayback.prototype.report = originals.report;
  TrackPlayback.prototype.play = originals.play;
  (Player.prototype as unknown as PlayerInternals).dispatch = originals.dispatch;
  (Player.prototype as unknown as PlayerInternals).leaveRequests = originals.leaveRequests;
  console.error = originals.consoleError;
  process.off('unhandledRejection', onUnhandled);
}

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
  readonly loads: { params: LoadParams; stub: StubName; startsAtOnce: boolean; settled: boolean }[] = [];
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
  readonly counts = { pause: 0, play: 0, skipNext: 0, skipPrev: 0, resumeWhileSuspended: 0, loadAsking: { A: 0, B: 0 } as Record<StubName, number> };
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
      return {
        items: items(name),
        policies: { limitedSkips: q.limitedSkips, notifyUserIntent: q.notifyUserIntent, canSeek: q.canSeek, ...(q.pauseTtlSec !== undefined ? { pauseTtlSec: q.pauseTtlSec } : {}) },
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
    await this.h.close();
    await this.stubs.B.close();
  }

  private newItem(name: StubName, durationMillis: number): QueueItem {
    const prefix = name === 'A' ? 'a' : 'b';
    const n = ++this.nextItem[name];
    const item = tracks(1, durationMillis, `${prefix}${n}x`)[0]!;
    this.everItems[name].set(item.id, item.track);
    return item;
  }

  private stubOf(url: URL): StubName | '?' {
    for (const name of ['A', 'B'] as const) if (this.stubs[name] && new URL(this.stubs[name].baseUrl).port === url.port) return name;
    return '?';
  }

  /** The player's transport: records every request as sent, and holds or hangs scripted ones. */
  private transport(clock: EngineClock): HttpTransport {
    return (request: HttpRequest): Promise<HttpResponse> => {
      const url = new URL(request.url);
      const endpoint = url.pathname.split('/').at(-1) ?? '';
      const stub = this.stubOf(url);
      let reports: SentReport[] = [];
      if (endpoint === 'timePlayed' && request.body) reports = (JSON.parse(request.body) as { items: SentReport[] }).items;
      this.wire.push({
        seq: this.seq++,
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
      const rule = this.rules.find((r) => r.stub === stub && r.endpoint === endpoint && (r.reason === null || r.reason === reason));
      if (!rule) return fetchTransport(request);
      if (--rule.times === 0) this.rules.splice(this.rules.indexOf(rule), 1);
      // Not waited for by the clock's settle: a held answer is released by the model, a hanging
      // one ends with the client's own 10 s engine-clock timeout.
      clock.release(request.headers['x-request-id']!);
      return new Promise<HttpResponse>((resolve, reject) => {
        const aborted = () => reject(request.signal.reason instanceof Error ? request.signal.reason : new Error('aborted'));
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
   * httpAuthorization (CONTRACT §5), or, while a load waits, to that load's queue too (the queue
   * playing goes on until the answer, README). Nothing but reports once the player is idle
   * (seed §3: no active queue). Reports may go to a queue the player left (its cut-off tracks).
   */
  private checkSend(r: WireRequest): void {
    if (r.stub === '?') return;
    const auth = r.headers.authorization;
    const where = `${r.method} ${r.endpoint}${r.query.reason ? ` reason=${r.query.reason}` : ''} to ${r.stub} (#${r.seq})`;
    if (auth === undefined || !this.tokens[r.stub].has(auth)) this.violation(`${where}: Authorization ${String(auth)} is not the httpAuthorization of any load of that queue`);
    if (r.endpoint === 'timePlayed') return;
    const pending = this.loads.filter((l) => !l.settled);
    if (pending.length > 0) {
      if (r.stub !== this.owner?.stub && !pending.some((l) => l.stub === r.stub)) this.violation(`${where}: neither the queue playing nor one being loaded`);
      return;
    }
    if (this.h.player.machineState === 'IDLE') return this.violation(`${where}: sent by an idle player (no active queue, seed §3)`);
    if (!this.owner || r.stub !== this.owner.stub) this.violation(`${where}: not the queue of the last load answered (${this.owner?.stub ?? 'none'})`);
    else if (auth !== this.owner.token) this.violation(`${where}: Authorization ${String(auth)}, not the last load's ${this.owner.token}`);
  }

  async release(): Promise<void> {
    await Promise.allSettled(this.held.splice(0).map((go) => go()));
    await this.h.settle();
  }

  /** The current queue's item for a reference, or an unknown id. */
  private pick(ref: ItemRef, stub: StubName): QueueItem {
    const items = this.stubs[stub].items;
    if (ref === 'gone' || items.length === 0) return { id: 'gone', track: { mediaUrl: 'https://media.example/gone.mp3', durationMillis: 20_000 } };
    return items[ref % items.length]!;
  }

  private command(run: () => void, what: string): void {
    try {
      run();
    } catch (error) {
      if (!(error instanceof PlaybackError)) this.violation(`${what} threw ${String((error as Error)?.stack ?? error)}`);
    }
  }

  private expectPlaybackError(promise: Promise<unknown>, what: string, into: { settled: boolean }): void {
    promise.then(
      () => (into.settled = true),
      (error: unknown) => {
        into.settled = true;
        if (!(error instanceof PlaybackError)) this.violation(`${what} rejected with ${String((error as Error)?.stack ?? error)}`);
      },
    );
  }

  async run(action: Action): Promise<void> {
    const { h } = this;
    const player = h.player;
    const policies = (name: StubName) => this.setup[name];
    switch (action.t) {
      case 'load': {
        const stub = action.stub;
        const item = action.item === null ? null : this.pick(action.item, stub);
        const first = this.stubs[stub].items[0];
        const metadata = action.meta ? (item?.track ?? first?.track ?? { mediaUrl: 'https://media.example/x.mp3', durationMillis: 20_000 }) : undefined;
        const version = this.stubs[stub].version;
        const qv = action.qv === 'current' ? String(version) : action.qv === 'stale' ? String(Math.max(1, version - 1)) : action.qv === 'bogus' ? '999' : undefined;
        const token = `Bearer token-${this.step}`;
        const params: Partial<LoadParams> = {
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
        // §4.3 load: "Only if the limitedSkips playback policy is enabled or the command has no track metadata."
        if (policies(stub).limitedSkips || !metadata) this.counts.loadAsking[stub]++;
        this.loadVersions[stub].add(qv);
        const record = { params: params as LoadParams, stub, startsAtOnce: !!metadata && !policies(stub).limitedSkips && action.play, settled: false };
        this.loads.push(record);
        this.current = stub;
        this.tokens[stub].add(token);
        const loading = h.load(params);
        // The queue the player plays once the load is answered (CONTRACT §5: its httpAuthorization on every request).
        loading.then(() => (this.owner = { stub, token }), () => undefined);
        this.expectPlaybackError(loading, 'loadCloudQueue', record);
        break;
      }
      case 'skipNext':
      case 'skipPrev': {
        this.counts[action.t]++;
        const record = { settled: false };
        this.skips.push(record);
        let promise: Promise<void>;
        try {
          promise = player.act(action.t, 'user');
        } catch (error) {
          this.violation(`act(${action.t}) threw synchronously: ${String(error)}`);
          break;
        }
        this.expectPlaybackError(promise, action.t, record);
        break;
      }
      case 'play':
      case 'pause':
      case 'resume': {
        if (action.t === 'pause') this.counts.pause++;
        else this.counts.play++;
        if (action.t !== 'pause' && player.machineState === 'SUSPENDED') this.counts.resumeWhileSuspended++;
        this.expectPlaybackError(player.act(action.t, 'user'), action.t, { settled: false });
        break;
      }
      case 'skipToItem': {
        const item = this.pick(action.item, this.current);
        const params: SkipToItemParams = {
          itemId: item.id,
          ...(action.meta ? { trackMetadata: item.track } : {}),
          ...(action.play !== null ? { playOnCompletion: action.play } : {}),
          ...(action.pos !== null ? { positionMillis: action.pos } : {}),
        };
        this.commandIds.add(item.id);
        // §4.3 skipToItem: "Only if limitedSkips is enabled or the command has no track metadata."
        const queuePolicies = player.snapshot().policies;
        if (!action.meta || queuePolicies?.limitedSkips) this.skipToItemAsking.add(item.id);
        this.command(() => player.skipToItem(params), 'skipToItem');
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
        const left = player.machineState === 'PLAYING' && track ? (track.durationMillis ?? 180_000) - player.status().positionMillis : BUFFERING_MS;
        await this.advance(Math.max(0, left + action.offset));
        return;
      }
      case 'toEdge':
        for (let i = 0; i < 90 && !player.snapshot().atEdge; i++) {
          await this.advance(1_000);
          this.checkStep();
        }
        return;
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
          this.rules.push({ stub: name, endpoint: action.endpoint, reason: action.endpoint === 'itemWindow' ? action.reason : null, kind: action.answer, times: action.times });
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
        this.stubs[name].script(action.endpoint, answer, { times: action.times, ...(action.endpoint === 'itemWindow' && action.reason ? { reason: action.reason } : {}) });
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
    const before = { transitions: h.transitions.length, status: h.player.status(), state: h.player.machineState, track: internals(h.player).track };
    await h.advance(ms);
    const after = h.player.status();
    if (h.transitions.length !== before.transitions || internals(h.player).track !== before.track || h.player.machineState !== before.state) return;
    const track = h.player.snapshot().track;
    if (!track) return; // no track: checkStep says so
    const duration = track.durationMillis ?? 180_000;
    if (before.state === 'PLAYING') {
      // states.ts: "A track plays; its playhead moves with the engine clock."
      const expected = Math.min(duration, before.status.positionMillis + ms);
      if (Math.abs(after.positionMillis - expected) > 1) this.violation(`PLAYING for ${ms} ms with no transition, yet the playhead went ${before.status.positionMillis} → ${after.positionMillis} (expected ${expected})`);
    } else if (Math.abs(after.positionMillis - before.status.positionMillis) > 1) {
      this.violation(`${before.state} for ${ms} ms with no transition, yet the playhead moved ${before.status.positionMillis} → ${after.positionMillis}`);
    }
  }

  /** A load not yet answered: a track started at once may have no item id or window yet (README). */
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

    // (4) states.ts / CONTRACT §5: one of the named states, and a status that agrees with it.
    if (!ALL_STATES.includes(state)) this.violation(`machineState ${String(state)} is not one of ${ALL_STATES.join(', ')}`);
    if (status.playbackState !== playbackStateOf(state)) this.violation(`status().playbackState ${status.playbackState} for machine state ${state}`);
    if (status.suspended !== (state === 'SUSPENDED')) this.violation(`status().suspended ${status.suspended} in ${state}`);
    if (state === 'IDLE') {
      // Seed §3: PLAYBACK_STATE_IDLE, "player has no active queue".
      if (status.itemId !== null || status.queueVersion !== null || snap.track !== null || snap.window !== null) {
        this.violation(`IDLE yet status/snapshot holds a queue: ${JSON.stringify({ itemId: status.itemId, queueVersion: status.queueVersion, track: snap.track?.id })}`);
      }
    } else {
      if (!snap.track || !snap.queueBaseUrl) {
        this.violation(`${state} without a track or a queue (status ${JSON.stringify(status)})`);
        return this.checkWire();
      }
      // README: a track a load started at once has no item id (nor a window) until a load is answered.
      if (status.itemId === null && !this.loadPending()) this.violation(`${state} with no itemId and no load pending`);
      if (status.queueVersion === null && !this.loadPending()) this.violation(`${state} with no queueVersion and no load pending`);
      if (status.itemId === 'pending') this.violation(`status() shows the placeholder itemId 'pending'`);
      const duration = snap.track?.durationMillis ?? 180_000;
      if (status.positionMillis < 0 || status.positionMillis > duration) this.violation(`positionMillis ${status.positionMillis} outside 0..${duration}`);
      if (state === 'PLAYING' && (snap.atEnd || snap.atEdge)) this.violation(`PLAYING with atEnd=${snap.atEnd} atEdge=${snap.atEdge}`);
      if (snap.atEnd && state !== 'PAUSED' && state !== 'SUSPENDED') this.violation(`atEnd (the queue ended) in ${state}`);
    }

    // Seed §3 row 3: a suspended session plays again only through an explicit resume (reason=resume), or a new load.
    for (; this.checkedTransitions < h.transitions.length; this.checkedTransitions++) {
      const t = h.transitions[this.checkedTransitions]!;
      if (t.from === 'SUSPENDED' && (t.to === 'PLAYING' || t.to === 'BUFFERING') && !t.transition.startsWith('resume-answered') && !t.transition.startsWith('load-')) {
        this.violation(`SUSPENDED → ${t.to} by row ${t.transition}, not by a resume`);
      }
    }

    // Seed §3 row 2: Paused → pauseTtlSec passes → Suspended.
    const ttl = snap.policies?.pauseTtlSec;
    if (state === 'PAUSED' && ttl !== undefined) {
      const into = [...h.transitions].reverse().find((t) => t.to === 'PAUSED');
      if (into !== undefined && h.clock.now() - into.at > ttl * 1_000 + 1) {
        const entered = [...h.transitions].reverse().find((t) => t.to === 'PAUSED' && t.from !== 'PAUSED');
        const failedLoad = h.transitions.some((t) => t.transition === 'load-failed' && t.at >= (entered?.at ?? 0));
        this.violation(`PAUSED for ${(h.clock.now() - into.at) / 1_000} s (entered by row ${entered?.transition}; a load failed since: ${failedLoad ? 'yes' : 'no'}), past pauseTtlSec=${ttl}, and not suspended`);
      }
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
      // CONTRACT §5: X-Player-Id and a per-request X-Request-Id.
      if (!r.headers['x-player-id'] || !r.requestId) this.violation(`${where}: no X-Player-Id or X-Request-Id`);
      if (this.requestIds.has(r.requestId)) this.violation(`${where}: X-Request-Id ${r.requestId} used twice`);
      this.requestIds.add(r.requestId);
      const known = r.stub === '?' ? new Map<string, Track>() : this.everItems[r.stub];
      if (r.endpoint === 'itemWindow') {
        const { reason, itemId, previousWindowSize, upcomingWindowSize, queueVersion } = r.query;
        // (3) Seed §2.4/§4.3: reason is one of the values listed (or the v2.2 combination).
        if (reason === undefined || !SEED_REASONS.includes(reason)) this.violation(`${where}: reason ${String(reason)} is not one the seed allows`);
        // Seed §4.3/§8: window sizes are integers, zero or greater.
        for (const [name, value] of [['previousWindowSize', previousWindowSize], ['upcomingWindowSize', upcomingWindowSize]] as const) {
          if (value !== undefined && !/^\d+$/.test(value)) this.violation(`${where}: ${name}=${value} is not an integer ≥ 0`);
        }
        // (2) no placeholder or empty itemId; an itemId is one of this queue's (or a command's).
        if (itemId !== undefined && (itemId === '' || itemId === 'pending' || (!known.has(itemId) && !this.commandIds.has(itemId)))) {
          this.violation(`${where}: itemId=${JSON.stringify(itemId)} is neither an item of that queue nor one a command named`);
        }
        // queueVersion, when sent, is one the server issued or a command named (CONTRACT §4).
        if (queueVersion !== undefined && r.stub !== '?' && !this.commandVersions.has(queueVersion) && !(Number(queueVersion) >= 1 && Number(queueVersion) <= this.stubs[r.stub].version)) {
          this.violation(`${where}: queueVersion=${queueVersion} was never issued by that server nor named by a command`);
        }
        const setup = r.stub === '?' ? null : this.setup[r.stub];
        if (setup) {
          // Seed §4.3 pause/play: "Only when notifyUserIntent is enabled."
          if ((reason === 'pause' || reason === 'play') && !setup.notifyUserIntent) this.violation(`${where}: reason=${reason} without notifyUserIntent`);
          // Seed §4.3 skipNext/skipPrev: "Only when limitedSkips or notifyUserIntent is enabled."
          if ((reason === 'skipNext' || reason === 'skipPrev') && !setup.limitedSkips && !setup.notifyUserIntent) this.violation(`${where}: reason=${reason} without limitedSkips or notifyUserIntent`);
          // Seed §4.3 skipToItem: the request carries the itemId from a command that asks the server.
          if (reason === 'skipToItem' && (itemId === undefined || !this.skipToItemAsking.has(itemId))) this.violation(`${where}: reason=skipToItem for itemId=${String(itemId)}, which no skipToItem command (limitedSkips or no metadata) named`);
          // Seed §3 row 3 / §4.3 resume: only for an explicit resume of a suspended session.
          if (reason === 'resume' && this.counts.resumeWhileSuspended === 0) this.violation(`${where}: reason=resume, yet no play/resume was ever asked of a suspended session`);
          // README: "The first window of a load carries the command's queueVersion".
          if ((reason === 'load' || reason === 'load+queueCompleted') && r.stub !== '?' && !this.loadVersions[r.stub].has(queueVersion)) {
            this.violation(`${where}: a load's first window with queueVersion=${String(queueVersion)}, which no load of that queue named`);
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
    const countOf = (reason: string, stub?: StubName) => firstTries.filter((r) => r.query.reason === reason && (stub === undefined || r.stub === stub)).length;
    if (countOf('pause') > this.counts.pause) this.violation(`${countOf('pause')} reason=pause requests for ${this.counts.pause} pause actions`);
    if (countOf('play') > this.counts.play) this.violation(`${countOf('play')} reason=play requests for ${this.counts.play} play/resume actions (§4.3: not sent when playback starts from a load or skipToItem)`);
    if (countOf('skipNext') > this.counts.skipNext) this.violation(`${countOf('skipNext')} reason=skipNext requests for ${this.counts.skipNext} skips`);
    if (countOf('skipPrev') > this.counts.skipPrev) this.violation(`${countOf('skipPrev')} reason=skipPrev requests for ${this.counts.skipPrev} skips`);
    for (const stub of ['A', 'B'] as const) {
      const loads = countOf('load', stub) + countOf('load+queueCompleted', stub);
      if (loads > this.counts.loadAsking[stub]) this.violation(`${loads} reason=load requests to ${stub} for ${this.counts.loadAsking[stub]} loads that may send one (§4.3: only with limitedSkips or without metadata)`);
    }

    // §7.1/§7.2/§7.4: a retry follows a failure that may be retried (incomplete, 503), at most 3
    // times, and when the table says: background requests 10 s after the try before (§7.4.2);
    // others 2 s after an incomplete one, Retry-After clamped to 2–10 s after a 503 (§7.2).
    for (; this.checkedExchanges < this.h.exchanges.length; this.checkedExchanges++) {
      const e = this.h.exchanges[this.checkedExchanges]!;
      if (e.retry === 0) continue;
      const where = `${e.endpoint}${e.reason ? ` reason=${e.reason}` : ''} retry ${e.retry} at ${e.startedAt - T0}`;
      if (e.retry > 3) this.violation(`${where}: more than 3 retries`);
      const background = e.endpoint === 'version' || e.endpoint === 'context' || (e.endpoint === 'itemWindow' && ['refresh', 'queueCompleted', 'skipToItem'].includes(e.reason ?? ''));
      const due = (f: (typeof this.h.exchanges)[number]): number => {
        if (background) return f.startedAt + 10_000;
        const wait = f.failure?.kind === 'unavailable' ? Math.min(10, Math.max(2, f.failure.retryAfterSec ?? 2)) * 1_000 : 2_000;
        return f.startedAt + f.durationMs + wait;
      };
      const tries = this.h.exchanges.filter((f) => f.endpoint === e.endpoint && f.reason === e.reason && f.retry === e.retry - 1 && f.startedAt < e.startedAt);
      const retryable = tries.filter((f) => f.failure?.kind === 'incomplete' || f.failure?.kind === 'unavailable');
      if (retryable.length === 0) this.violation(`${where}: no earlier try that failed incomplete or with 503 (§7.1: 500 and 404 are not retried)`);
      else if (!retryable.some((f) => Math.abs(due(f) - e.startedAt) <= 1)) {
        this.violation(`${where}: sent ${retryable.map((f) => e.startedAt - f.startedAt).join('/')} ms after the try before, not when ${background ? '§7.4.2' : '§7.2'} says (${retryable.map((f) => due(f) - f.startedAt).join('/')} ms)`);
      }
    }
  }

  private checkReport(r: WireRequest, report: SentReport, known: Map<string, Track>, where: string): void {
    const pb = report.__playback;
    const tag = `${where}: ${report.type} report of ${report.id} (playback ${String(pb)})`;
    // (2) Seed §2.3 id: "Queue id of the item that played": never the placeholder, one of this queue's.
    if (report.id === 'pending') this.violation(`${tag}: the placeholder id 'pending' on the wire`);
    else if (!report.id || (!known.has(report.id) && !this.commandIds.has(report.id))) this.violation(`${tag}: id is not an item of the queue it was sent to`);
    // Seed §2.3 type: `final` or `update`; `skip` only on a final.
    if (report.type !== 'final' && report.type !== 'update') this.violation(`${tag}: type ${report.type} is neither final nor update`);
    if (report.skip !== undefined && report.type !== 'final') this.violation(`${tag}: skip on a report that is not final`);
    if (typeof report.queueVersion !== 'string') this.violation(`${tag}: queueVersion is not a string`);
    else if (report.queueVersion !== '' && r.stub !== '?' && !(Number(report.queueVersion) >= 1 && Number(report.queueVersion) <= this.stubs[r.stub].version)) {
      this.violation(`${tag}: queueVersion ${report.queueVersion} was never a version of that queue (§2.3: the version of the last item window fetched)`);
    }
    for (const field of ['durationPlayedMillis', 'timeSincePlaybackMillis', 'positionMillis', 'positionMillisAtSegmentStart'] as const) {
      if (!Number.isInteger(report[field]) || report[field] < 0) this.violation(`${tag}: ${field}=${report[field]}`);
    }
    // §2.3: played time cannot exceed the time since the playback started.
    if (report.durationPlayedMillis > report.timeSincePlaybackMillis + 1) this.violation(`${tag}: durationPlayedMillis ${report.durationPlayedMillis} > timeSincePlaybackMillis ${report.timeSincePlaybackMillis}`);
    const track = known.get(report.id);
    if (track?.durationMillis !== undefined && report.positionMillis > track.durationMillis) this.violation(`${tag}: positionMillis ${report.positionMillis} past the track's ${track.durationMillis}`);
    if (pb === undefined) return this.violation(`${tag}: no playback tag`);
    // Only first tries count: a retry resends the same report.
    if (this.exchangeRetry(r.requestId)! > 0) return;
    const previous = this.lastReport.get(pb);
    // (1) Seed §2.3 rule 2: one final per playback; nothing after it.
    if (this.finals.has(pb)) this.violation(`${tag}: sent after that playback's final report (#${this.finals.get(pb)})${this.endedWithoutWindow.has(pb) ? ' (it ended with no window)' : ''}`);
    if (report.type === 'final') this.finals.set(pb, r.seq);
    // Seed §2.3: durationPlayedMillis is cumulative within one playback; timeSincePlaybackMillis runs on.
    if (previous && (report.durationPlayedMillis < previous.durationPlayedMillis || report.timeSincePlaybackMillis < previous.timeSincePlaybackMillis)) {
      this.violation(`${tag}: went back from ${previous.durationPlayedMillis}/${previous.timeSincePlaybackMillis} to ${report.durationPlayedMillis}/${report.timeSincePlaybackMillis} (played/since)`);
    }
    if (previous && previous.id !== report.id) this.violation(`${tag}: the same playback was reported as ${previous.id} before`);
    this.lastReport.set(pb, report);
  }

  /** After the long healthy run-out: nothing waits for ever, every ended playback had its final. */
  checkEnd(): void {
    const { h } = this;
    const player = h.player;
    const inner = internals(player);
    const snap = player.snapshot();
    if (this.loads.some((l) => !l.settled)) this.violation(`a loadCloudQueue never answered (${this.loads.filter((l) => !l.settled).length})`);
    if (this.skips.some((s) => !s.settled)) this.violation(`a user skip never answered`);
    if (this.checkedWire < this.wire.length) this.violation(`a request never ended: ${JSON.stringify(this.wire[this.checkedWire])}`);
    if (player.machineState === 'BUFFERING') this.violation(`still BUFFERING after a long healthy run (atEdge=${snap.atEdge})`);
    if (snap.retrying.length > 0) this.violation(`still waiting to retry: ${JSON.stringify(snap.retrying)}`);
    if (inner.untilFirstWindow.length > 0 || inner.reportsUntilFirstWindow.length > 0) {
      this.violation(`requests (${inner.untilFirstWindow.length}) or reports (${inner.reportsUntilFirstWindow.length}) still wait for a first window that will never come`);
    }
    // Seed §2.3 rule 2: "A final report is posted once after each track finishes playing or is
    // skipped." A playback that started and is no longer the player's gets one, unless its queue
    // was dropped by a failing server or a 404 (README), or it never got an item id.
    for (const [id, playback] of this.playbacks) {
      if (playback === inner.track || this.finals.has(id) || this.dropped.has(id) || playback.item.id === 'pending') continue;
      const held = this.heldCutOffs.get(id);
      const dropped = this.heldDropped.get(id);
      this.violation(
        `playback ${id} of ${playback.item.id} started, ended, and never got a final report${held ? ` (cut off by a started-at-once load; the load holding its final ended with row ${held})` : ''}${dropped ? ` (its final, held for a first window, was dropped: ${dropped})` : ''}`,
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
    // Seed §8: the version is polled every 5 minutes paused, every 10 playing.
    const state = w.h.player.machineState;
    const transitions = w.h.transitions.length;
    const polls = w.wire.filter((r) => r.endpoint === 'version').length;
    await w.advance(11 * 60_000);
    const stayed = w.h.transitions.slice(transitions).every((t) => t.to === 'PLAYING' || t.to === 'PAUSED' || t.to === 'BUFFERING');
    if ((state === 'PLAYING' || state === 'PAUSED') && w.h.player.snapshot().queueBaseUrl !== null && stayed && w.wire.filter((r) => r.endpoint === 'version').length === polls) {
      w.violation(`${state} for 11 minutes with a queue and no GET /version`);
    }
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
    .record({ reason: fc.constantFrom(null, 'refresh', 'queueCompleted'), answer: fc.constantFrom('hold' as const, 'hang' as const), times: fc.integer({ min: 1, max: 6 }) })
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
  it.runIf(!!process.env.MODEL_CASE)('replays MODEL_CASE', async () => {
    const { setup, actions } = JSON.parse(process.env.MODEL_CASE!) as { setup: Partial<Record<StubName, Partial<QueueSetup>>>; actions: Action[] };
    const base: QueueSetup = { durations: [3_000], limitedSkips: false, notifyUserIntent: false, pauseTtlSec: undefined, canSeek: true, sendUpdateAfterMillis: undefined, periodicIntervalMillis: undefined, sendPlaybackActions: false };
    const w = await runModel({ A: { ...base, ...setup.A }, B: { ...base, ...setup.B } }, actions);
    console.warn(w.h.rows().join(' '));
    console.warn(w.wire.map((r) => `${r.at - 1_800_000_000_000} ${r.stub} ${r.endpoint} ${r.query.reason ?? ''} ${r.query.itemId ?? ''} ${r.reports.map((x) => `${x.type}:${x.id}:${x.__playback}`).join(',')}`).join('\n'));
    expect(w.violations).toEqual([]);
  }, 60_000);

  it(
    'keeps every invariant through random commands, user actions, clock moves, edits and failures',
    async () => {
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(setupArb, loadArb, preludeArb, fc.array(actionArb, { maxLength: 22, size: 'max' }), async (setup, load, prelude, rest) => {
          const actions: Action[] = [load, ...prelude, ...rest];
          const w = await runModel(setup, actions);
          if (process.env.MODEL_DEBUG) {
            stats.runs++;
            for (const row of w.h.rows()) stats.rows.set(row, (stats.rows.get(row) ?? 0) + 1);
            stats.requests += w.wire.length;
            stats.reports += w.wire.filter((r) => r.endpoint === 'timePlayed').length;
            stats.retries += w.h.exchanges.filter((e) => e.retry > 0).length;
          }
          if (w.violations.length > 0) throw new Error(`${w.violations.join('\n')}\nsteps:\n${w.log.map((l, i) => `  ${i + 1}. ${l}`).join('\n')}`);
        }),
        {
          numRuns: RUNS,
          seed: SEED,
          ...(process.env.MODEL_PATH ? { path: process.env.MODEL_PATH } : {}),
          interruptAfterTimeLimit: 100_000,
          markInterruptAsFailure: false,
        },
      );
      console.warn(`model: ${RUNS} runs in ${Date.now() - started} ms`);
      if (process.env.MODEL_DEBUG) {
        console.warn(JSON.stringify({ ...stats, rows: Object.fromEntries([...stats.rows].sort()) }));
        console.warn('rows never hit:', TRANSITIONS.map((t) => t.id).filter((id) => !stats.rows.has(id)).join(' '));
      }
    },
    240_000,
  );
});

