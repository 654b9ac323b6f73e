/**
 * `npm run test:pack`: the package as users get it. Packs the tarball, installs it into an empty
 * folder with `npm install --omit=dev`, and runs its command line from there (minutes, mostly
 * better-sqlite3's install), so it runs apart from the unit tests.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['scripts/**/*.check.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 600_000,
  },
});
