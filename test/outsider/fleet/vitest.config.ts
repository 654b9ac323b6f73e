/**
 * Runs only these outsider tests, with the repository's settings, until the root config's
 * `include` names `test/**` (then this file can go): `npx vitest run -c test/outsider/fleet/vitest.config.ts`.
 * They spawn the built CLI, so `npm run build` comes first.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import base from '../../../vitest.config';

// Spread, not mergeConfig: mergeConfig would add these files to the root's `include`, not replace it.
export default defineConfig({
  ...base,
  root: resolve(import.meta.dirname, '../../..'),
  test: { ...base.test, include: ['test/outsider/fleet/**/*.test.ts'], testTimeout: 90_000, maxConcurrency: 3 },
});
