import { relative, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that run for tens of seconds on a 2-core runner (CI's own timings), longest first. Without
 * vitest's cache of past durations (a fresh clone) it starts the largest files first, and a short
 * file that runs long was left to the end with one worker idle: 96 s of outsiders after the rest.
 */
const LONG_RUNNING = [
  'test/outsider/fleet/hostile.test.ts',
  'main/serve.test.ts',
  'main/engine/bundles/round-trip.test.ts',
  'main/engine/player/transitions.test.ts',
  'main/engine/traffic/bounds.test.ts',
  'main/engine/conformance/defects.test.ts',
  'main/engine/conformance/reference.test.ts',
  'main/engine/conformance/outsiders/outsiders.test.ts',
  'main/engine/cloud-queue/large-queue.test.ts',
  'main/cli/check-bounds.test.ts',
  'scripts/start.test.ts',
  'main/cli/cli.test.ts',
  'main/engine/conformance/runs.test.ts',
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
