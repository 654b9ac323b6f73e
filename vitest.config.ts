import { relative, resolve } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that run for tens of seconds on a 2-core runner, in the order they start (seconds each
 * took in one whole run under load). Without vitest's cache of past durations (a fresh clone) it
 * starts the largest files first, and a short file that runs long was left to the end with one
 * worker idle: 96 s of outsiders after the rest. A new file that runs this long belongs here too.
 *
 * Long first, and files that mostly wait (`// waits`: fleets and plays of a fixed wall-clock
 * length, a tenth to a third of a core each) between files that compute: four waiting files side
 * by side held every worker while the cores were half idle for a minute of the run.
 */
const LONG_RUNNING = [
  'test/outsider/fleet/hostile.test.ts', // 62, waits
  'main/engine/bundles/round-trip.test.ts', // 90
  'main/serve.test.ts', // 63
  'main/engine/traffic/bounds.test.ts', // 19 (the timing project, after the rest)
  'main/engine/conformance/reference.test.ts', // 38
  'scripts/artillery-example.test.ts', // 49, waits
  'main/engine/conformance/outsiders/outsiders.test.ts', // 41
  'main/engine/fleet/workers.test.ts', // 51, waits
  'main/engine/conformance/defects.test.ts', // 38
  'main/cli/fleet-ci.test.ts', // 32, waits
  'main/engine/player/transitions.test.ts', // 32
  'main/engine/fleet/fleet-servers.test.ts', // 33, waits
  'main/engine/cloud-queue/large-queue.test.ts', // 18 (the timing project)
  'main/engine/player/player.model.test.ts', // 6
  'main/engine/fleet/request-timeout.test.ts', // 26, waits
  'main/engine/conformance/runs.test.ts', // 6
  'main/cli/fleet.test.ts', // 18, waits
  'renderer/src/components/CommandPalette.test.tsx', // 12
  'main/engine/fleet/fleet.test.ts', // 22, waits
  'scripts/start.test.ts', // 12
  'test/outsider/fleet/hostile-endpoint.test.ts', // 40, waits
  'main/engine/data-safety-commands.test.ts', // 22
  'test/outsider/fleet/correct.test.ts', // 31, waits
  'main/cli/cli.test.ts', // 13
  'main/cli/check-bounds.test.ts', // 12
  'main/cli/fleet-bodies.test.ts', // 15
  'scripts/first-run.test.ts', // 17 (seven npm commands one after another)
];

/** Vitest's order, with the long-running files moved to the front so none is left to the end. */
class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const index = LONG_RUNNING.indexOf(relative(import.meta.dirname, spec.moduleId).replaceAll('\\', '/'));
      return index === -1 ? LONG_RUNNING.length : index;
    };
    return (await super.sort(files))
      .map((spec, order) => ({ spec, order, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map(({ spec }) => spec);
  }
}

/** Every test file, wherever it lives (each pattern a folder, then `/**`). */
export const TEST_FILES = [
  'main/**/*.test.ts',
  'bench/**/*.test.ts',
  'renderer/src/**/*.test.{ts,tsx}',
  'scripts/**/*.test.ts',
  'test/**/*.test.ts',
];

/**
 * Files that replace a module for their own run (`vi.mock`): each in a process of its own, since in a
 * shared one the replaced module would stay for the files after it (round-trip's cheaper scrypt
 * made every later password check fail). `scripts/test-isolation.test.ts` holds this list to the files.
 */
export const MOCKING_FILES = [
  'main/engine/bundles/restart-round-trip.test.ts',
  'main/engine/bundles/round-trip.test.ts',
];

/**
 * Files that hold a listener to a bound of time (no answer waits 250 ms while a big write, a
 * search, an export or a password hash runs). Their probes count this process's CPU, which four
 * workers on two cores inflate: in a CI run a span read 310 ms that the same file alone reads at
 * 50-160 ms. They run after the rest, one at a time, where what they measure is the engine's own
 * work: two at a time (a core each), large-queue.test.ts's 250 ms bound read 278-434 ms in two CI
 * runs out of four with traffic/bounds.test.ts beside it, both writing hundreds of MB to SQLite; alone
 * they take about 40 s more. `scripts/test-isolation.test.ts` holds this list to the files.
 */
export const TIMING_FILES = [
  'main/engine/admin/answer-in-turns.test.ts',
  'main/engine/admin/json-in-turns.test.ts',
  'main/engine/admin/body-limits.test.ts',
  'main/engine/admin/many-values.test.ts',
  'main/engine/cloud-queue/large-queue.test.ts',
  'main/engine/cloud-queue/staged-writes.test.ts',
  'main/engine/login/endpoints/sign-in-hashing.test.ts',
  'main/engine/traffic/bounds.test.ts',
  'main/engine/traffic/text-search.test.ts',
  'main/engine/testing/stall-probe.test.ts',
];

export default defineConfig({
  // The renderer's name for the engine API contract (renderer/tsconfig.json, electron.vite.config.ts).
  resolve: { alias: { '@engine-api': resolve(import.meta.dirname, 'main/engine/api') } },
  test: {
    environment: 'node',
    pool: 'forks',
    // Five at a time on the 2-core runner: the suite waits more than it computes (engines' timers,
    // fleets of fixed length, child processes starting), and with two workers the cores were idle
    // 44% of the run (CPU 525 s in 7 min 46 s); with four, 5 min 33 s, and 4 min 12-18 s with the
    // processes shared below (CPU 380 s). Later, with the suite grown to CPU 510 s: four workers
    // 5 min 7-23 s, the cores half idle for a minute; five, with the waiting files spread out
    // (LONG_RUNNING), 4 min 31 s, idle under 10%. Measured on this 2-core machine, quiet.
    maxWorkers: 5,
    sequence: { sequencer: LongRunningFirst },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      // A worker's processes run file after file: importing the engine and its libraries once per
      // process, not once per file (imports 157 s of the run's workers' time, 43-48 s this way). Every engine, server
      // and timer a file starts, it closes (no global singletons), so nothing of one file reaches the next.
      {
        extends: true,
        test: {
          name: 'unit',
          include: TEST_FILES,
          exclude: [...configDefaults.exclude, ...MOCKING_FILES, ...TIMING_FILES],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'mocking', include: MOCKING_FILES, isolate: true } },
      {
        extends: true,
        test: {
          name: 'timing',
          include: TIMING_FILES,
          isolate: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
