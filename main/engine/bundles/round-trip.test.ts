/**
 * A repro bundle reproduces, as a property: random sequences of the workbench's actions on a
 * fresh console with a queue playing on Kitchen, exported with `bundles.export` and replayed as
 * `cloud-queue-console run` replays a file, on another fresh console, pass and go through the same
 * transitions, player by player; and one bundle replayed twice does the same, exchange for
 * exchange. The clocks only move by steps, so a run is exact and costs no waiting.
 *
 * Env: ROUND_TRIP_SEED and ROUND_TRIP_RUNS replay or widen the search (a failure prints the seed,
 * the path and the shrunk actions).
 */
import type * as NodeCrypto from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { ReproBundle } from '../api/bundle-types.js';
import type { PlayerTransition } from '../api/player-types.js';
import type { ScenarioReport, ScenarioStepResult } from '../api/scenario-types.js';
import { runCommand } from '../../cli/run.js';
import {
  actionsArb,
  allTransitions,
  describeAction,
  freshConsole,
  perform,
  playingOnKitchen,
  replay,
  rowsByPlayer,
  setupArb,
  type ActionKind,
  type QueueSetup,
  type WorkbenchAction,
} from './testing-actions.js';

// Every fresh console hashes the demo user's password, and checks it again for its own control
// token, with scrypt at full cost: over half of a console's start, paid twice per sequence. The
// property is about bundles, not passwords: scrypt runs here at a lower cost, the same algorithm.
vi.mock('node:crypto', async (importOriginal) =>
  (await import('../testing/cheap-scrypt.js')).withCheapScrypt(await importOriginal<typeof NodeCrypto>()),
);

const SEED = Number(process.env.ROUND_TRIP_SEED ?? 38_2026);
const RUNS = Number(process.env.ROUND_TRIP_RUNS ?? 200);

/** Every kind of action the workbench offers (ROUND_TRIP_KINDS, comma-separated, narrows a search). */
const ALL_KINDS: readonly ActionKind[] = [
  'preset',
  'rule',
  'removeRule',
  'moveRule',
  'triggerRule',
  'sendNow',
  'button',
  'seek',
  'skipToItem',
  'refreshCloudQueue',
  'suspend',
  'load',
  'edit',
  'advance',
  'speed',
];
const KINDS = process.env.ROUND_TRIP_KINDS
  ? ALL_KINDS.filter((kind) => process.env.ROUND_TRIP_KINDS!.split(',').includes(kind))
  : ALL_KINDS;

interface Exported {
  bundle: ReproBundle;
  rows: Record<string, string[]>;
}

/** The actions on a fresh console, then the bundle it exports and what its players went through. */
async function exportAfter(setup: QueueSetup, actions: readonly WorkbenchAction[]): Promise<Exported> {
  const source = await freshConsole();
  try {
    const bench = await playingOnKitchen(source, setup);
    for (const action of actions) await perform(bench, action);
    const rows = rowsByPlayer(await allTransitions(source));
    const bundle = await source.commands.run('bundles.export', { name: 'Round trip' });
    return { bundle, rows };
  } finally {
    await source.close();
  }
}

/** What a failed round trip says: the actions, the steps that did not pass, the bundle's notes. */
function explain(actions: readonly WorkbenchAction[], report: ScenarioReport, notes: readonly string[]): string {
  const steps = report.steps
    .filter((s) => s.status === 'failed')
    .map((s) => `  step ${s.index + 1} (${s.type}): ${s.message}`);
  return [
    `actions:`,
    ...actions.map((a, i) => `  ${i + 1}. ${describeAction(a)}`),
    `failed steps:`,
    ...steps,
    `notes:`,
    ...notes.map((n) => `  ${n}`),
  ].join('\n');
}

/** A transition as two replays must both make it: at the same engine time since the run began. */
const timed = (report: ScenarioReport) => (t: PlayerTransition) =>
  `${t.playerId} +${t.at - report.startedAt} ${t.from}→${t.to} ${t.transition} ${t.cause}`;

/** A step's outcome without the ids each console hands out afresh (sessions, rules, queues). */
const anonymous = (step: ScenarioStepResult) => ({
  ...step,
  message: step.message.replace(/\b([a-z]+)-[0-9a-f]{8}[0-9a-f-]*/g, '$1-*').replace(/queues\/[\w-]+/g, 'queues/*'),
});

const params = { numRuns: RUNS, seed: SEED, endOnFailure: false } as const;

describe('a repro bundle of any workbench session', () => {
  it(
    'replays to PASS on another fresh console, through the same transitions',
    async () => {
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(setupArb, actionsArb(KINDS), async (setup, actions) => {
          const { bundle, rows } = await exportAfter(setup, actions);
          const { report, notes } = await replay(bundle);
          const why = explain(actions, report, [...bundle.notes, ...notes]);
          expect(report.passed, why).toBe(true);
          expect(rowsByPlayer(report.transitions), why).toEqual(rows);
        }),
        params,
      );
      console.warn(`round trip: ${RUNS} sequences in ${Date.now() - started} ms`);
    },
    Math.max(240_000, RUNS * 2_000),
  );

  it(
    'replays the same way twice: the same transitions at the same engine times, exchange for exchange',
    async () => {
      const started = Date.now();
      const runs = Math.max(1, Math.round(RUNS / 8));
      await fc.assert(
        fc.asyncProperty(setupArb, actionsArb(KINDS), async (setup, actions) => {
          const { bundle } = await exportAfter(setup, actions);
          const first = await replay(bundle);
          const second = await replay(bundle);
          const why = explain(actions, second.report, bundle.notes);
          expect(second.report.transitions.map(timed(second.report)), why).toEqual(
            first.report.transitions.map(timed(first.report)),
          );
          expect(second.exchanges, why).toEqual(first.exchanges);
          expect(second.report.steps.map(anonymous), why).toEqual(first.report.steps.map(anonymous));
        }),
        { ...params, numRuns: runs },
      );
      console.warn(`deterministic replay: ${runs} sequences in ${Date.now() - started} ms`);
    },
    Math.max(240_000, RUNS * 2_000),
  );

  it(
    'passes `run FILE` itself, exit 0, with the same transitions in its JSON report',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cqc-round-trip-'));
      try {
        // `run` replays on the real wall clock: the clock speed is left alone here.
        const kinds = KINDS.filter((kind) => kind !== 'speed');
        let n = 0;
        await fc.assert(
          fc.asyncProperty(setupArb, actionsArb(kinds), async (setup, actions) => {
            const { bundle, rows } = await exportAfter(setup, actions);
            const file = join(dir, `bundle-${++n}.json`);
            const json = join(dir, `report-${n}.json`);
            writeFileSync(file, JSON.stringify(bundle));
            let out = '';
            const code = await runCommand([file, '--json', json], {
              stdout: (text) => (out += text),
              stderr: (text) => (out += text),
            });
            const report = JSON.parse(readFileSync(json, 'utf8')) as ScenarioReport;
            const why = `${explain(actions, report, bundle.notes)}\n${out}`;
            expect(code, why).toBe(0);
            expect(rowsByPlayer(report.transitions), why).toEqual(rows);
          }),
          { ...params, numRuns: Math.max(1, Math.round(RUNS / 20)) },
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    Math.max(120_000, RUNS * 1_000),
  );
});

describe('a repro bundle cut after its load (the newest entries, or the traffic log cleared)', () => {
  it(
    'replays to PASS on another fresh console: its span reaches back to the load call',
    async () => {
      // The load's window answers an engine second late, so that the player leaves idle after the
      // call that loaded it began (audit V1: a span cut there left the load out).
      const cutArb = fc.oneof(fc.record({ limit: fc.integer({ min: 1, max: 40 }) }), fc.constant('cleared' as const));
      await fc.assert(
        fc.asyncProperty(setupArb, actionsArb(KINDS), cutArb, async (setup, actions, cut) => {
          const source = await freshConsole();
          let bundle: ReproBundle;
          try {
            const bench = await playingOnKitchen(source, { ...setup, loadLatencyMs: 1_000 });
            if (cut === 'cleared') await source.commands.run('traffic.clear');
            for (const action of actions) await perform(bench, action);
            bundle = await source.commands.run('bundles.export', cut === 'cleared' ? {} : cut);
          } finally {
            await source.close();
          }
          // A span that moved no player (the log cleared, then only polls) holds no load to reach
          // back to: refused as checking nothing, as the docs say, rather than run to a verdict.
          if (!bundle.scenario.steps.some((step) => step.type === 'expect')) {
            await expect(replay(bundle)).rejects.toThrow(/checks nothing/);
            return;
          }
          const { report, notes } = await replay(bundle);
          expect(report.passed, explain(actions, report, [...bundle.notes, ...notes])).toBe(true);
        }),
        // Each sequence costs about 4 s of wall time: the slow load waits out its latency twice.
        { ...params, numRuns: Math.max(1, Math.round(RUNS / 20)) },
      );
    },
    Math.max(120_000, RUNS * 1_000),
  );
});

describe('a bundle exported by 0.1.0', () => {
  it.each(['v1-storm-send-now.json', 'v1-rule-removed.json'])(
    '%s runs with `run FILE`: exit 0, its notes saying what it cannot replay',
    async (name) => {
      let out = '';
      const code = await runCommand([fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))], {
        stdout: (text) => (out += text),
        stderr: (text) => (out += text),
      });
      expect(code, out).toBe(0);
      expect(out).toMatch(/note: a version 1 bundle .*not checked/);
      expect(out).toMatch(/^PASSED · /m);
    },
  );
});
