/**
 * Authorization codes, by the SHA-256 hash of the code: single use (`used_at` set once, atomically),
 * bound to their key, redirect URI and PKCE challenge (docs/contract/console.md §2).
 */
import type { SqliteDatabase } from '../database.js';

export interface AuthorizationCode {
  codeHash: Buffer;
  grantId: string;
  keyId: string;
  redirectUri: string;
  codeChallenge: string | null;
  issuedAt: number;
  expiresAt: number;
  usedAt: number | null;
}

interface Row {
  code_hash: Buffer;
  grant_id: string;
  key_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  issued_at: number;
  expires_at: number;
  used_at: number | null;
}

const toCode = (row: Row): AuthorizationCode => ({
  codeHash: row.code_hash,
  grantId: row.grant_id,
  keyId: row.key_id,
  redirectUri: row.redirect_uri,
  codeChallenge: row.code_challenge,
  issuedAt: row.issued_at,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
});

export class AuthorizationCodeRepository {
  private readonly byHash;
  private readonly byGrant;
  private readonly insert;
  private readonly use;

  constructor(db: SqliteDatabase) {
    this.byHash = db.prepare<[Buffer], Row>('SELECT * FROM authorization_codes WHERE code_hash = ?');
    this.byGrant = db.prepare<[string], Row>(
      'SELECT * FROM authorization_codes WHERE grant_id = ? ORDER BY issued_at DESC LIMIT 1',
    );
    this.insert = db.prepare<[Buffer, string, string, string, string | null, number, number]>(
      `INSERT INTO authorization_codes (code_hash, grant_id, key_id, redirect_uri, code_challenge, issued_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.use = db.prepare<[number, Buffer]>(
      'UPDATE authorization_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL',
    );
  }

  findByHash(codeHash: Buffer): AuthorizationCode | undefined {
    const row = this.byHash.get(codeHash);
    return row && toCode(row);
  }

  findByGrant(grantId: string): AuthorizationCode | undefined {
    const row = this.byGrant.get(grantId);
    return row && toCode(row);
  }

  create(code: Omit<AuthorizationCode, 'usedAt'>): void {
    this.insert.run(
      code.codeHash,
      code.grantId,
      code.keyId,
      code.redirectUri,
      code.codeChallenge,
      code.issuedAt,
      code.expiresAt,
    );
  }

  /** Spends the code; false when it was already spent (two racing exchanges: only one wins). */
  markUsed(codeHash: Buffer, at: number): boolean {
    return this.use.run(at, codeHash).changes === 1;
  }
}
