import type { Migration } from '../migrations.js';

/**
 * Conformance runs, kept with the server they checked so that a restart finds them and can rerun
 * them (docs/contract/console.md §8). One JSON document per run: the suite writes a run whole
 * and reads it whole. `authorization` is never here in clear, only masked
 * (docs/contract/console.md §9). `seq` orders runs newest first and says which go beyond the cap.
 */
export const conformanceRunsMigration: Migration = {
  version: 14,
  name: 'conformance-runs',
  up: `
    CREATE TABLE conformance_runs (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      status TEXT NOT NULL,
      run TEXT NOT NULL
    );
  `,
};
