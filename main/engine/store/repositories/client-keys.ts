/**
 * Client credential keys (docs/contract/platform.md §2.1): a client id and the SHA-256 hash of its
 * secret; with an event callback URL, also the secret its events are signed with (migration 015).
 */
import type { SqliteDatabase } from '../database.js';

export interface ClientKey {
  id: string;
  integrationId: string;
  name: string;
  clientId: string;
  secretHash: Buffer;
  secretHint: string;
  createdAt: number;
  secretSetAt: number;
  /** Where its events go (docs/events.md); null: none set. */
  eventCallbackUrl: string | null;
  /** The secret, in clear, while `eventCallbackUrl` is set: the event signature needs it. */
  eventSigningSecret: string | null;
}

/** A key as it is made: without a callback URL unless one is given. */
export type NewClientKey = Omit<ClientKey, 'eventCallbackUrl' | 'eventSigningSecret'> &
  Partial<Pick<ClientKey, 'eventCallbackUrl' | 'eventSigningSecret'>>;

interface Row {
  id: string;
  integration_id: string;
  name: string;
  client_id: string;
  secret_hash: Buffer;
  secret_hint: string;
  created_at: number;
  secret_set_at: number;
  event_callback_url: string | null;
  event_signing_secret: string | null;
}

const toKey = (row: Row): ClientKey => ({
  id: row.id,
  integrationId: row.integration_id,
  name: row.name,
  clientId: row.client_id,
  secretHash: row.secret_hash,
  secretHint: row.secret_hint,
  createdAt: row.created_at,
  secretSetAt: row.secret_set_at,
  eventCallbackUrl: row.event_callback_url,
  eventSigningSecret: row.event_signing_secret,
});

export class ClientKeyRepository {
  private readonly db: SqliteDatabase;
  private readonly byIntegration;
  private readonly one;
  private readonly byClientId;
  private readonly insert;
  private readonly secret;
  private readonly remove;
  private readonly eventCallback;

  constructor(db: SqliteDatabase) {
    this.db = db;
    this.byIntegration = db.prepare<[string], Row>(
      'SELECT * FROM client_keys WHERE integration_id = ? ORDER BY created_at, rowid',
    );
    this.one = db.prepare<[string], Row>('SELECT * FROM client_keys WHERE id = ?');
    this.byClientId = db.prepare<[string], Row>('SELECT * FROM client_keys WHERE client_id = ?');
    this.insert = db.prepare<
      [string, string, string, string, Buffer, string, number, number, string | null, string | null]
    >(
      `INSERT INTO client_keys (id, integration_id, name, client_id, secret_hash, secret_hint, created_at, secret_set_at, event_callback_url, event_signing_secret)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.secret = db.prepare<[Buffer, string, number, string]>(
      'UPDATE client_keys SET secret_hash = ?, secret_hint = ?, secret_set_at = ? WHERE id = ?',
    );
    this.remove = db.prepare<[string]>('DELETE FROM client_keys WHERE id = ?');
    this.eventCallback = db.prepare<[string | null, string | null, string]>(
      'UPDATE client_keys SET event_callback_url = ?, event_signing_secret = ? WHERE id = ?',
    );
  }

  /** Each key's client secret hash and hint: what capture must still know as a secret after a restart (read once, at start). */
  secretHashes(): { hash: Buffer; hint: string }[] {
    return this.db
      .prepare<[], { secret_hash: Buffer; secret_hint: string }>('SELECT secret_hash, secret_hint FROM client_keys')
      .all()
      .map((row) => ({ hash: row.secret_hash, hint: row.secret_hint }));
  }

  listByIntegration(integrationId: string): ClientKey[] {
    return this.byIntegration.all(integrationId).map(toKey);
  }

  get(id: string): ClientKey | undefined {
    const row = this.one.get(id);
    return row && toKey(row);
  }

  findByClientId(clientId: string): ClientKey | undefined {
    const row = this.byClientId.get(clientId);
    return row && toKey(row);
  }

  create(input: NewClientKey): ClientKey {
    const key: ClientKey = {
      ...input,
      eventCallbackUrl: input.eventCallbackUrl ?? null,
      eventSigningSecret: input.eventSigningSecret ?? null,
    };
    this.insert.run(
      key.id,
      key.integrationId,
      key.name,
      key.clientId,
      key.secretHash,
      key.secretHint,
      key.createdAt,
      key.secretSetAt,
      key.eventCallbackUrl,
      key.eventSigningSecret,
    );
    return key;
  }

  /** Sets (or with nulls clears) where a key's events go and the secret they are signed with. */
  setEventCallback(id: string, url: string | null, signingSecret: string | null): void {
    this.eventCallback.run(url, url === null ? null : signingSecret, id);
  }

  setSecret(id: string, secretHash: Buffer, secretHint: string, at: number): void {
    this.secret.run(secretHash, secretHint, at, id);
  }

  delete(id: string): boolean {
    return this.remove.run(id).changes > 0;
  }
}
