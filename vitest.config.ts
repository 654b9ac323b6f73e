import { relative, resolve } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that run for tens of seconds on a 2-core runner, longest first (seconds each took in one
 * whole run under load; the order is what counts). Without vitest's cache of past durations (a
 * fresh clone) it starts the largest files first, and a short file that runs long was left to the
 * end with one worker idle: 96 s of outsiders after the rest. A new file that runs this long
 * belongs here too.
 */
const LONG_RUNNING = [
  'test/outsider/fleet/hostile.test.ts', // its fleets' 90 s each (joined the suite after that run)
  'main/engine/bundles/round-trip.test.ts', // 200
  'main/serve.test.ts', // 151
  'main/engine/traffic/bounds.test.ts', // 99
  'main/engine/conformance/reference.test.ts', // 97
  'main/engine/conformance/outsiders/outsiders.test.ts', // 85
  'scripts/artillery-example.test.ts', // 80
  'main/engine/conformance/defects.test.ts', // 74
  'main/engine/player/transitions.test.ts', // 48
  'main/engine/fleet/workers.test.ts', // 45
  'main/engine/cloud-queue/large-queue.test.ts', // 44
  'main/engine/player/player.model.test.ts', // 40
  'main/cli/fleet-ci.test.ts', // 34
  'main/engine/fleet/fleet-servers.test.ts', // 33
  'main/engine/conformance/runs.test.ts', // 28
  'main/engine/fleet/request-timeout.test.ts', // 28
  'main/cli/fleet.test.ts', // 27
  'renderer/src/components/CommandPalette.test.tsx', // 25
  'main/engine/fleet/fleet.test.ts', // 24
  'scripts/start.test.ts', // 22
  'main/engine/data-safety-commands.test.ts', // 21
  'main/cli/cli.test.ts', // 18
  'main/cli/check-bounds.test.ts', // 15
  'main/cli/fleet-bodies.test.ts', // 15
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
export const MOCKING_FILES = ['main/engine/bundles/round-trip.test.ts'];

/**
 * Files that hold a listener to a bound of time (no answer waits 250 ms while a big write, a
 * search, an export or a password hash runs). Their probes count this process's CPU, which four
 * workers on two cores inflate: in a CI run a span read 310 ms that the same file alone reads at
 * 50-160 ms. They run after the rest, two at a time (a core each), where what they measure is the
 * engine's own work. `scripts/test-isolation.test.ts` holds this list to the files.
 */
export const TIMING_FILES = [
  'main/engine/admin/body-limits.test.ts',
  'main/engine/cloud-queue/large-queue.test.ts',
  'main/engine/cloud-queue/staged-writes.test.ts',
  'main/engine/login/endpoints/sign-in-hashing.test.ts',
  'main/engine/traffic/bounds.test.ts',
  'main/engine/traffic/text-search.test.ts',
];

export default defineConfig({
  // The renderer's name for the engine API contract (renderer/tsconfig.json, electron.vite.config.ts).
  resolve: { alias: { '@engine-api': resolve(import.meta.dirname, 'main/engine/api') } },
  test: {
    environment: 'node',
    pool: 'forks',
    // Four at a time on the 2-core runner: the suite waits more than it computes (engines' timers,
    // fleets of fixed length, child processes starting), and with two workers the cores were idle
    // 44% of the run (CPU 525 s in 7 min 46 s); with four, 5 min 33 s, and 4 min 12-18 s with the
    // processes shared below (CPU 380 s). Measured on this 2-core machine, quiet, two runs each.
    maxWorkers: 4,
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
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
