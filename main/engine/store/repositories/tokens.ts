/**
 * Access and refresh tokens, by the SHA-256 hash of the token. A refresh token that was rotated
 * keeps its row (`rotated_at`), so that presenting it again is recognised as reuse (CONTRACT §2).
 */
import type { TokenKind } from '../../api/oauth-types.js';
import type { SqliteDatabase } from '../database.js';

export interface Token {
  id: string;
  grantId: string;
  kind: TokenKind;
  tokenHash: Buffer;
  hint: string;
  parentId: string | null;
  issuedAt: number;
  expiresAt: number | null;
  rotatedAt: number | null;
  revokedAt: number | null;
  revokedReason: string | null;
}

/** A token with what the bearer check needs of its grant and key, read in one query. */
export interface TokenWithGrant extends Token {
  householdId: string;
  scope: string;
  clientId: string;
  flowId: string | null;
  grantRevokedAt: number | null;
}

interface Row {
  id: string;
  grant_id: string;
  kind: TokenKind;
  token_hash: Buffer;
  hint: string;
  parent_id: string | null;
  issued_at: number;
  expires_at: number | null;
  rotated_at: number | null;
  revoked_at: number | null;
  revoked_reason: string | null;
}

interface JoinedRow extends Row {
  household_id: string;
  scope: string;
  client_id: string;
  flow_id: string | null;
  grant_revoked_at: number | null;
}

const toToken = (row: Row): Token => ({
  id: row.id,
  grantId: row.grant_id,
  kind: row.kind,
  tokenHash: row.token_hash,
  hint: row.hint,
  parentId: row.parent_id,
  issuedAt: row.issued_at,
  expiresAt: row.expires_at,
  rotatedAt: row.rotated_at,
  revokedAt: row.revoked_at,
  revokedReason: row.revoked_reason,
});

export class TokenRepository {
  private readonly one;
  private readonly byHash;
  private readonly byGrant;
  private readonly insert;
  private readonly rotate;
  private readonly revokeRow;
  private readonly revokeGrantRows;
  private readonly expireRow;

  constructor(db: SqliteDatabase) {
    this.one = db.prepare<[string], Row>('SELECT * FROM tokens WHERE id = ?');
    this.byHash = db.prepare<[Buffer], JoinedRow>(
      `SELECT t.*, g.household_id, g.scope, g.flow_id, g.revoked_at AS grant_revoked_at, k.client_id
       FROM tokens t JOIN grants g ON g.id = t.grant_id JOIN client_keys k ON k.id = g.key_id
       WHERE t.token_hash = ?`,
    );
    this.byGrant = db.prepare<[string], Row>('SELECT * FROM tokens WHERE grant_id = ? ORDER BY issued_at, rowid');
    this.insert = db.prepare<[string, string, TokenKind, Buffer, string, string | null, number, number | null]>(
      `INSERT INTO tokens (id, grant_id, kind, token_hash, hint, parent_id, issued_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.rotate = db.prepare<[number, string]>('UPDATE tokens SET rotated_at = ? WHERE id = ? AND rotated_at IS NULL AND revoked_at IS NULL');
    this.revokeRow = db.prepare<[number, string, string]>('UPDATE tokens SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND revoked_at IS NULL');
    this.revokeGrantRows = db.prepare<[number, string, string]>(
      'UPDATE tokens SET revoked_at = ?, revoked_reason = ? WHERE grant_id = ? AND revoked_at IS NULL',
    );
    this.expireRow = db.prepare<[number, string, number]>('UPDATE tokens SET expires_at = ? WHERE id = ? AND (expires_at IS NULL OR expires_at > ?)');
  }

  get(id: string): Token | undefined {
    const row = this.one.get(id);
    return row && toToken(row);
  }

  findByHash(tokenHash: Buffer): TokenWithGrant | undefined {
    const row = this.byHash.get(tokenHash);
    return (
      row && {
        ...toToken(row),
        householdId: row.household_id,
        scope: row.scope,
        clientId: row.client_id,
        flowId: row.flow_id,
        grantRevokedAt: row.grant_revoked_at,
      }
    );
  }

  listByGrant(grantId: string): Token[] {
    return this.byGrant.all(grantId).map(toToken);
  }

  create(token: Omit<Token, 'rotatedAt' | 'revokedAt' | 'revokedReason'>): Token {
    const t = token;
    this.insert.run(t.id, t.grantId, t.kind, t.tokenHash, t.hint, t.parentId, t.issuedAt, t.expiresAt);
    return { ...token, rotatedAt: null, revokedAt: null, revokedReason: null };
  }

  /** Marks a refresh token as replaced; false when it already was (two racing refreshes: one wins). */
  markRotated(id: string, at: number): boolean {
    return this.rotate.run(at, id).changes === 1;
  }

  revoke(id: string, at: number, reason: string): boolean {
    return this.revokeRow.run(at, reason, id).changes > 0;
  }

  /** Revokes every live token of a grant; returns how many. */
  revokeByGrant(grantId: string, at: number, reason: string): number {
    return this.revokeGrantRows.run(at, reason, grantId).changes;
  }

  /** Moves the token's expiry to `at` (never later than it was). */
  expire(id: string, at: number): boolean {
    return this.expireRow.run(at, id, at).changes > 0;
  }
}
