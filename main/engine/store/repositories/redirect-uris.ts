/** Redirect URIs registered for a client key (docs/contract/platform.md §2.1); the authorization request must match one exactly. */
import type { SqliteDatabase } from '../database.js';

export interface RedirectUri {
  id: string;
  keyId: string;
  uri: string;
  createdAt: number;
}

interface Row {
  id: string;
  key_id: string;
  uri: string;
  created_at: number;
}

const toRedirectUri = (row: Row): RedirectUri => ({
  id: row.id,
  keyId: row.key_id,
  uri: row.uri,
  createdAt: row.created_at,
});

export class RedirectUriRepository {
  private readonly byKey;
  private readonly one;
  private readonly insert;
  private readonly remove;

  constructor(db: SqliteDatabase) {
    this.byKey = db.prepare<[string], Row>('SELECT * FROM redirect_uris WHERE key_id = ? ORDER BY created_at, rowid');
    this.one = db.prepare<[string], Row>('SELECT * FROM redirect_uris WHERE id = ?');
    this.insert = db.prepare<[string, string, string, number]>(
      'INSERT INTO redirect_uris (id, key_id, uri, created_at) VALUES (?, ?, ?, ?)',
    );
    this.remove = db.prepare<[string]>('DELETE FROM redirect_uris WHERE id = ?');
  }

  listByKey(keyId: string): RedirectUri[] {
    return this.byKey.all(keyId).map(toRedirectUri);
  }

  get(id: string): RedirectUri | undefined {
    const row = this.one.get(id);
    return row && toRedirectUri(row);
  }

  create(redirectUri: RedirectUri): RedirectUri {
    this.insert.run(redirectUri.id, redirectUri.keyId, redirectUri.uri, redirectUri.createdAt);
    return redirectUri;
  }

  delete(id: string): boolean {
    return this.remove.run(id).changes > 0;
  }
}
