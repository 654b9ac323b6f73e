import { relative, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
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

export default defineConfig({
  // The renderer's name for the engine API contract (renderer/tsconfig.json, electron.vite.config.ts).
  resolve: { alias: { '@engine-api': resolve(import.meta.dirname, 'main/engine/api') } },
  test: {
    include: [
      'main/**/*.test.ts',
      'bench/**/*.test.ts',
      'renderer/src/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    environment: 'node',
    // Engine tests open real loopback listeners and child processes; two cores, so keep it calm.
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: LongRunningFirst },
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
