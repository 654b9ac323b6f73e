import type { Migration } from '../migrations.js';

/**
 * Event callbacks and subscriptions (docs/contract/console.md §3 events, §7 event callbacks;
 * docs/events.md). A key gets its event callback URL and the secret its events are signed with:
 * the public signature is a SHA-256 over the headers, the client id and the client secret itself,
 * which the key's hash cannot stand in for. So the secret is a required column exactly while the
 * key has a callback URL (docs/contract/console.md §9), and is cleared with it.
 *
 * A subscription is one key's interest in one namespace of one group (or in a household's
 * groups), with the sequence id of the newest event made for it, so that ids go on growing
 * across a restart.
 */
export const eventCallbacksMigration: Migration = {
  version: 15,
  name: 'event-callbacks',
  up: `
    ALTER TABLE client_keys ADD COLUMN event_callback_url TEXT;
    ALTER TABLE client_keys ADD COLUMN event_signing_secret TEXT;
    CREATE TABLE event_subscriptions (
      id TEXT PRIMARY KEY,
      key_id TEXT NOT NULL REFERENCES client_keys(id) ON DELETE CASCADE,
      household_id TEXT NOT NULL,
      namespace TEXT NOT NULL,
      target_type TEXT NOT NULL,
      target_value TEXT NOT NULL,
      last_seq_id INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      UNIQUE (key_id, namespace, target_value)
    );
  `,
};
