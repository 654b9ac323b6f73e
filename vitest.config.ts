import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The renderer's name for the engine API contract (renderer/tsconfig.json, electron.vite.config.ts).
  resolve: { alias: { '@engine-api': resolve(import.meta.dirname, 'main/engine/api') } },
  test: {
    include: ['main/**/*.test.ts', 'bench/**/*.test.ts', 'renderer/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    environment: 'node',
    // Engine tests open real loopback listeners and child processes; two cores, so keep it calm.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
