import type { Migration } from '../migrations.js';

/**
 * Placeholder for the login service's migration (issue 3), written in parallel on its own branch.
 * The runner wants contiguous numbers, so this empty one holds number 2 until the real one lands.
 */
export const loginMigration: Migration = { version: 2, name: 'login', up: '' };
