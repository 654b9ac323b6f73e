/**
 * A bundle exported after a restart never fails a console that did nothing wrong, as a property:
 * random workbench sessions on a data dir, the console stopped and started again on it, more
 * actions on the same session, then `bundles.export` replayed on a fresh console must pass.
 * The journal begins anew at a start while the players keep where they were, so the replay cannot
 * cause what a player loaded before it met; a skip on such a session failed the replay, 409
 * against 200 (review), and so did every call whose outcome depended on the load.
 *
 * Env: RESTART_TRIP_SEED and RESTART_TRIP_RUNS replay or widen the search.
 */
import type * as NodeCrypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../index.js';
import { ManualWall } from '../testing/manual-wall.js';
import { tempDirs } from '../testing/temp-dirs.js';
import {
  actionsArb,
  describeAction,
  perform,
  playingOnKitchen,
  replay,
  settle,
  setupArb,
  type ActionKind,
  type Bench,
  type QueueSetup,
  type WorkbenchAction,
} from './testing-actions.js';

// As in round-trip.test.ts: scrypt at a lower cost, the same algorithm (the property is about bundles).
vi.mock('node:crypto', async (importOriginal) =>
  (await import('../testing/cheap-scrypt.js')).withCheapScrypt(await importOriginal<typeof NodeCrypto>()),
);

const SEED = Number(process.env.RESTART_TRIP_SEED ?? 5_12_2026);
const RUNS = Number(process.env.RESTART_TRIP_RUNS ?? 16);

/** What a user does across a restart: the control calls, the buttons, the clock (rules live across it too). */
const KINDS: readonly ActionKind[] = [
  'rule',
  'button',
  'seek',
  'skipToItem',
  'refreshCloudQueue',
  'suspend',
  'load',
  'sendNow',
  'advance',
];

const SIX: QueueSetup = { durations: Array(6).fill(20_000), limitedSkips: false, notifyUserIntent: false };
/** What the search found, kept as examples that run first (each failed before its mend). */
const FOUND: [QueueSetup, WorkbenchAction[], WorkbenchAction[]][] = [
  // A one-answer 503 spent by the restored player's refresh: the replay's load met it, 502 against 200.
  [
    SIX,
    [
      {
        kind: 'rule',
        rule: {
          target: 'cloudQueue',
          match: {},
          action: { type: 'status', status: 503, retryAfter: 3 },
          times: 1,
          label: 'custom A',
        },
      },
      { kind: 'button', action: 'play' },
    ],
    [{ kind: 'refreshCloudQueue' }, { kind: 'load', pick: 0 }, { kind: 'advance', ms: 1_000 }],
  ],
  // A one-answer timeout spent by a load after the restart, whose exchange never ended: the
  // traffic log held no hit, the rule counted as spent before the span, and the replay left it out.
  [
    SIX,
    [
      {
        kind: 'rule',
        rule: {
          target: 'cloudQueue',
          match: { method: 'GET', path: '/itemWindow', reason: 'load' },
          action: { type: 'timeout' },
          times: 1,
          label: 'custom A',
        },
      },
    ],
    [
      { kind: 'load', pick: 0 },
      { kind: 'load', pick: 0 },
      { kind: 'skipToItem', pick: 0 },
    ],
  ],
  // A refresh of the restored player drew from a rule of chance the replay's load then drew from.
  [
    SIX,
    [{ kind: 'skipToItem', pick: 0 }],
    [
      {
        kind: 'rule',
        rule: {
          target: 'cloudQueue',
          match: { method: 'GET', path: '/itemWindow' },
          action: { type: 'latency', ms: 500 },
          label: 'custom A',
          probability: 0.5,
          seed: 200,
        },
      },
      { kind: 'sendNow', request: 'refresh' },
      { kind: 'load', pick: 0 },
      { kind: 'suspend' },
    ],
  ],
  // Rows recorded before the restart at the start's own instant (the clock stopped across it)
  // were read as after it: the bundle expected a load the journal never saw.
  [
    SIX,
    [
      {
        kind: 'rule',
        rule: {
          target: 'cloudQueue',
          match: { method: 'GET', path: '/itemWindow' },
          action: { type: 'status', status: 404 },
          label: 'custom A',
        },
      },
      { kind: 'skipToItem', pick: 0 },
      { kind: 'advance', ms: 1_000 },
      { kind: 'load', pick: 0 },
      {
        kind: 'rule',
        rule: {
          target: 'cloudQueue',
          match: { method: 'GET', path: '/version' },
          action: { type: 'status', status: 404 },
          label: 'custom A',
        },
      },
    ],
    [{ kind: 'advance', ms: 1_000 }],
  ],
  // A rule of chance that drew before the restart draws afresh in the replay: its load met a 403.
  [
    SIX,
    [
      { kind: 'suspend' },
      {
        kind: 'rule',
        rule: {
          target: 'cloudQueue',
          match: {},
          action: { type: 'status', status: 403, rejectedReason: 'SKIP_LIMIT_REACHED' },
          label: 'custom A',
          probability: 0.5,
          seed: 205,
        },
      },
      { kind: 'button', action: 'play' },
    ],
    [
      { kind: 'load', pick: 0 },
      { kind: 'seek', command: 'seekRelative', millis: -10_000 },
    ],
  ],
];

const dataDir = tempDirs('cqc-restart-trip-');
const open: Engine[] = [];
afterAll(async () => {
  await Promise.all(open.splice(0).map((engine) => engine.close()));
});

async function started(dir: string, wall: ManualWall): Promise<Engine> {
  const engine = await createEngine({ dataDir: dir, port: 0, clockSpeed: 0, wall });
  open.push(engine);
  return engine;
}

async function closed(engine: Engine): Promise<void> {
  open.splice(open.indexOf(engine), 1);
  await engine.close();
}

describe('a repro bundle exported after the console restarted', () => {
  it(
    'replays to PASS on a fresh console, whatever was loaded before the restart',
    async () => {
      let passed = 0;
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(
          setupArb,
          actionsArb(KINDS),
          actionsArb(KINDS),
          async (setup, before: WorkbenchAction[], after: WorkbenchAction[]) => {
            const dir = dataDir();
            const wall = new ManualWall();
            const first = await started(dir, wall);
            const bench = await playingOnKitchen(first, setup);
            for (const action of before) await perform(bench, action);
            await settle(bench);
            await closed(first);

            const source = await started(dir, wall);
            // Its queue as this start serves it: each start listens on a port of its own.
            const queue = { ...bench.queue, ...(await source.commands.run('queues.get', { id: bench.queue.id })) };
            const again: Bench = { engine: source, queue, sessionId: bench.sessionId };
            for (const action of after) await perform(again, action);
            await settle(again);
            const bundle = await source.commands.run('bundles.export', { name: 'After a restart' });
            await closed(source);

            let replayed: Awaited<ReturnType<typeof replay>>;
            try {
              replayed = await replay(bundle);
            } catch (error) {
              // Nothing after the start that the replay can cause: refused as checking nothing
              // (`run` exits 2 with it), never a FAIL.
              expect(String(error)).toMatch(/checks nothing/);
              refused++;
              return;
            }
            const { report, notes } = replayed;
            const why = [
              'before the restart:',
              ...before.map((a, i) => `  ${i + 1}. ${describeAction(a)}`),
              'after it:',
              ...after.map((a, i) => `  ${i + 1}. ${describeAction(a)}`),
              'failed steps:',
              ...report.steps
                .filter((s) => s.status === 'failed')
                .map((s) => `  ${s.index + 1} (${s.type}): ${s.message}`),
              'notes:',
              ...[...bundle.notes, ...notes].map((n) => `  ${n}`),
            ].join('\n');
            expect(report.passed, why).toBe(true);
            passed++;
          },
        ),
        { numRuns: RUNS, seed: SEED, endOnFailure: false, examples: FOUND },
      );
      // Not a property of refusals alone: some sessions leave something after the start to check.
      // Most do not: a player busy since before the start meets the calls after it as the replay's
      // idle one cannot, and a session made only to carry them is not checked either (before, its
      // 200 alone made most of these passes: audit).
      expect(passed).toBeGreaterThan(0);
      console.warn(`restart round trip: ${passed} passed, ${refused} refused as checking nothing`);
    },
    Math.max(120_000, RUNS * 4_000),
  );
});
