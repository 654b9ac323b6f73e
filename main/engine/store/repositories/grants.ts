/**
 * Grants: one user's consent to one client key, and everything issued under it (a code, then
 * access and refresh tokens). Revoking a grant ends every token of it (docs/contract/console.md §2).
 */
import type { GrantView } from '../../api/oauth-types.js';
import type { SqliteDatabase } from '../database.js';

/** A grant's own row: the user by id; its code and tokens are rows of their own. */
export type Grant = Omit<GrantView, 'clientId' | 'username' | 'code' | 'tokens'> & { userId: string };

interface Row {
  id: string;
  integration_id: string;
  key_id: string;
  user_id: string;
  household_id: string;
  scope: string;
  flow_id: string | null;
  created_at: number;
  revoked_at: number | null;
  revoked_reason: string | null;
}

const toGrant = (row: Row): Grant => ({
  id: row.id,
  integrationId: row.integration_id,
  keyId: row.key_id,
  userId: row.user_id,
  householdId: row.household_id,
  scope: row.scope,
  flowId: row.flow_id,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  revokedReason: row.revoked_reason,
});

export class GrantRepository {
  private readonly one;
  private readonly byIntegration;
  private readonly insert;
  private readonly revokeRow;

  constructor(db: SqliteDatabase) {
    this.one = db.prepare<[string], Row>('SELECT * FROM grants WHERE id = ?');
    this.byIntegration = db.prepare<[string, number], Row>(
      'SELECT * FROM grants WHERE integration_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
    );
    this.insert = db.prepare<[string, string, string, string, string, string, string | null, number]>(
      `INSERT INTO grants (id, integration_id, key_id, user_id, household_id, scope, flow_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.revokeRow = db.prepare<[number, string, string]>(
      'UPDATE grants SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND revoked_at IS NULL',
    );
  }

  get(id: string): Grant | undefined {
    const row = this.one.get(id);
    return row && toGrant(row);
  }

  /** The newest grants of an integration first. */
  listByIntegration(integrationId: string, limit: number): Grant[] {
    return this.byIntegration.all(integrationId, limit).map(toGrant);
  }

  create(grant: Omit<Grant, 'revokedAt' | 'revokedReason'>): Grant {
    const g = grant;
    this.insert.run(g.id, g.integrationId, g.keyId, g.userId, g.householdId, g.scope, g.flowId, g.createdAt);
    return { ...grant, revokedAt: null, revokedReason: null };
  }

  /** Marks the grant revoked; false when it already was. */
  revoke(id: string, at: number, reason: string): boolean {
    return this.revokeRow.run(at, reason, id).changes > 0;
  }
}
