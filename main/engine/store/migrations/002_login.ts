import type { Migration } from '../migrations.js';

/**
 * The login service (docs/contract/console.md §2): integrations with their client keys and redirect URIs, grants
 * with the codes and tokens issued under them (secrets, codes and tokens only as SHA-256 hashes),
 * and the OAuth flow inspector's timeline.
 */
export const loginMigration: Migration = {
  version: 2,
  name: 'login',
  up: `
    CREATE TABLE integrations (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      description TEXT NOT NULL,
      category TEXT NOT NULL,
      rotate_refresh_tokens INTEGER NOT NULL DEFAULT 1,
      sample INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE TABLE client_keys (
      id TEXT PRIMARY KEY,
      integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      client_id TEXT NOT NULL UNIQUE,
      secret_hash BLOB NOT NULL,
      secret_hint TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      secret_set_at INTEGER NOT NULL
    );
    CREATE INDEX client_keys_by_integration ON client_keys(integration_id);
    CREATE TABLE redirect_uris (
      id TEXT PRIMARY KEY,
      key_id TEXT NOT NULL REFERENCES client_keys(id) ON DELETE CASCADE,
      uri TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      UNIQUE (key_id, uri)
    );
    CREATE TABLE grants (
      id TEXT PRIMARY KEY,
      integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
      key_id TEXT NOT NULL REFERENCES client_keys(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      household_id TEXT NOT NULL,
      scope TEXT NOT NULL,
      flow_id TEXT,
      created_at INTEGER NOT NULL,
      revoked_at INTEGER,
      revoked_reason TEXT
    );
    CREATE INDEX grants_by_integration ON grants(integration_id, created_at);
    CREATE TABLE authorization_codes (
      code_hash BLOB PRIMARY KEY,
      grant_id TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
      key_id TEXT NOT NULL REFERENCES client_keys(id) ON DELETE CASCADE,
      redirect_uri TEXT NOT NULL,
      code_challenge TEXT,
      issued_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX authorization_codes_by_grant ON authorization_codes(grant_id);
    CREATE TABLE tokens (
      id INTEGER PRIMARY KEY,
      grant_id TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
      token_hash BLOB NOT NULL UNIQUE,
      hint TEXT NOT NULL,
      parent_id INTEGER,
      issued_at INTEGER NOT NULL,
      expires_at INTEGER,
      rotated_at INTEGER,
      revoked_at INTEGER,
      revoked_reason TEXT
    );
    CREATE INDEX tokens_by_grant ON tokens(grant_id, issued_at);
    CREATE TABLE oauth_flows (
      id TEXT PRIMARY KEY,
      origin TEXT NOT NULL,
      integration_id TEXT,
      integration_name TEXT,
      client_id TEXT,
      status TEXT NOT NULL,
      started_at INTEGER NOT NULL
    );
    CREATE INDEX oauth_flows_by_start ON oauth_flows(started_at);
    CREATE TABLE oauth_flow_steps (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      flow_id TEXT NOT NULL REFERENCES oauth_flows(id) ON DELETE CASCADE,
      at INTEGER NOT NULL,
      kind TEXT NOT NULL,
      ok INTEGER NOT NULL,
      summary TEXT NOT NULL,
      detail TEXT NOT NULL
    );
    CREATE INDEX oauth_flow_steps_by_flow ON oauth_flow_steps(flow_id, seq);
  `,
};
