/**
 * Access and refresh tokens, by the SHA-256 hash of the token. A refresh token that was rotated
 * keeps its row (`rotated_at`), so that presenting it again is recognised as reuse (docs/contract/console.md §2).
 * Rows are keyed by an integer (the token endpoint inserts two per request, and a text key would
 * be one more index to write); hosts see it as `at_<n>` / `rt_<n>`.
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
  id: number;
  grant_id: string;
  kind: TokenKind;
  token_hash: Buffer;
  hint: string;
  parent_id: number | null;
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

/** `at_12` / `rt_13`: the kind and the row. */
export function tokenId(kind: TokenKind, row: number): string {
  return `${kind === 'access' ? 'at' : 'rt'}_${row}`;
}

/** The row of a token id, or null when it is not one. */
function rowOf(id: string): number | null {
  const match = /^(?:at|rt)_(\d{1,15})$/.exec(id);
  return match ? Number(match[1]) : null;
}

const toToken = (row: Row): Token => ({
  id: tokenId(row.kind, row.id),
  grantId: row.grant_id,
  kind: row.kind,
  tokenHash: row.token_hash,
  hint: row.hint,
  parentId: row.parent_id === null ? null : `rt_${row.parent_id}`,
  issuedAt: row.issued_at,
  expiresAt: row.expires_at,
  rotatedAt: row.rotated_at,
  revokedAt: row.revoked_at,
  revokedReason: row.revoked_reason,
});

export class TokenRepository {
  private readonly db: SqliteDatabase;
  private readonly one;
  private readonly byHash;
  private readonly byGrant;
  private readonly insert;
  private readonly rotate;
  private readonly revokeRow;
  private readonly revokeGrantRows;
  private readonly expireRow;

  constructor(db: SqliteDatabase) {
    this.db = db;
    this.one = db.prepare<[number], Row>('SELECT * FROM tokens WHERE id = ?');
    this.byHash = db.prepare<[Buffer], JoinedRow>(
      `SELECT t.*, g.household_id, g.scope, g.flow_id, g.revoked_at AS grant_revoked_at, k.client_id
       FROM tokens t JOIN grants g ON g.id = t.grant_id JOIN client_keys k ON k.id = g.key_id
       WHERE t.token_hash = ?`,
    );
    this.byGrant = db.prepare<[string], Row>('SELECT * FROM tokens WHERE grant_id = ? ORDER BY issued_at, id');
    this.insert = db.prepare<[string, TokenKind, Buffer, string, number | null, number, number | null]>(
      `INSERT INTO tokens (grant_id, kind, token_hash, hint, parent_id, issued_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.rotate = db.prepare<[number, number]>(
      'UPDATE tokens SET rotated_at = ? WHERE id = ? AND rotated_at IS NULL AND revoked_at IS NULL',
    );
    this.revokeRow = db.prepare<[number, string, number]>(
      'UPDATE tokens SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND revoked_at IS NULL',
    );
    this.revokeGrantRows = db.prepare<[number, string, string]>(
      'UPDATE tokens SET revoked_at = ?, revoked_reason = ? WHERE grant_id = ? AND revoked_at IS NULL',
    );
    this.expireRow = db.prepare<[number, number, number]>(
      'UPDATE tokens SET expires_at = ? WHERE id = ? AND (expires_at IS NULL OR expires_at > ?)',
    );
  }

  /**
   * The hash and hint of each token still live at `now` (neither revoked nor expired, nor a
   * refresh token rotated: presented again, that one revokes its grant), newest first, `limit` at
   * most: what capture must still know as a secret after a restart. Read once, at start: prepared
   * here, not with the others.
   */
  liveHashes(now: number, limit: number): { hash: Buffer; hint: string }[] {
    return this.db
      .prepare<[number, number], { token_hash: Buffer; hint: string }>(
        'SELECT token_hash, hint FROM tokens WHERE revoked_at IS NULL AND rotated_at IS NULL AND (expires_at IS NULL OR expires_at > ?) ORDER BY id DESC LIMIT ?',
      )
      .all(now, limit)
      .map((row) => ({ hash: row.token_hash, hint: row.hint }));
  }

  get(id: string): Token | undefined {
    const row = rowOf(id);
    const found = row === null ? undefined : this.one.get(row);
    return found && toToken(found);
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

  create(token: Omit<Token, 'id' | 'rotatedAt' | 'revokedAt' | 'revokedReason'>): Token {
    const t = token;
    const info = this.insert.run(
      t.grantId,
      t.kind,
      t.tokenHash,
      t.hint,
      t.parentId === null ? null : rowOf(t.parentId),
      t.issuedAt,
      t.expiresAt,
    );
    return {
      ...token,
      id: tokenId(t.kind, Number(info.lastInsertRowid)),
      rotatedAt: null,
      revokedAt: null,
      revokedReason: null,
    };
  }

  /** Marks a refresh token as replaced; false when it already was (two racing refreshes: one wins). */
  markRotated(id: string, at: number): boolean {
    const row = rowOf(id);
    return row !== null && this.rotate.run(at, row).changes === 1;
  }

  revoke(id: string, at: number, reason: string): boolean {
    const row = rowOf(id);
    return row !== null && this.revokeRow.run(at, reason, row).changes > 0;
  }

  /** Revokes every live token of a grant; returns how many. */
  revokeByGrant(grantId: string, at: number, reason: string): number {
    return this.revokeGrantRows.run(at, reason, grantId).changes;
  }

  /** Moves the token's expiry to `at` (never later than it was). */
  expire(id: string, at: number): boolean {
    const row = rowOf(id);
    return row !== null && this.expireRow.run(at, row, at).changes > 0;
  }
}
