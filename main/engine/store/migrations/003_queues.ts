import type { Migration } from '../migrations.js';

/** Placeholder on the player branch: the queues branch brings the real migration 003. */
export const queuesMigration: Migration = { version: 3, name: 'queues', up: '' };
