import type { Migration } from '../migrations.js';

/**
 * The refresh grace window (docs/contract/console.md §2): how long a refresh token that was just
 * rotated away still answers, per integration; 30 s unless set, 0 for strict rotation. Existing
 * integrations get the default, as new ones do.
 */
export const refreshGraceMigration: Migration = {
  version: 17,
  name: 'refresh-grace',
  up: `
    ALTER TABLE integrations ADD COLUMN refresh_grace_sec INTEGER NOT NULL DEFAULT 30;
  `,
};
