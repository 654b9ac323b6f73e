/** Integrations (docs/contract/platform.md §1.5): what users see on the consent page, and how their tokens behave. */
import type { IntegrationView } from '../../api/oauth-types.js';
import type { SqliteDatabase } from '../database.js';

/** An integration's own row; its keys and redirect URIs are rows of their own. */
export type Integration = Omit<IntegrationView, 'clientId' | 'redirectUris' | 'warnings' | 'keys'>;

export type IntegrationChanges = Partial<
  Pick<Integration, 'name' | 'description' | 'category' | 'rotateRefreshTokens' | 'refreshGraceSec'>
>;

interface Row {
  id: string;
  name: string;
  description: string;
  category: string;
  rotate_refresh_tokens: number;
  refresh_grace_sec: number;
  sample: number;
  created_at: number;
  updated_at: number;
}

const toIntegration = (row: Row): Integration => ({
  id: row.id,
  name: row.name,
  description: row.description,
  category: row.category,
  rotateRefreshTokens: row.rotate_refresh_tokens === 1,
  refreshGraceSec: row.refresh_grace_sec,
  sample: row.sample === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export class IntegrationRepository {
  private readonly all;
  private readonly one;
  private readonly insert;
  private readonly updateRow;
  private readonly remove;

  constructor(db: SqliteDatabase) {
    this.all = db.prepare<[], Row>('SELECT * FROM integrations ORDER BY created_at, rowid');
    this.one = db.prepare<[string], Row>('SELECT * FROM integrations WHERE id = ?');
    this.insert = db.prepare<[string, string, string, string, number, number, number, number, number]>(
      `INSERT INTO integrations (id, name, description, category, rotate_refresh_tokens, refresh_grace_sec, sample, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.updateRow = db.prepare<[string, string, string, number, number, number, string]>(
      'UPDATE integrations SET name = ?, description = ?, category = ?, rotate_refresh_tokens = ?, refresh_grace_sec = ?, updated_at = ? WHERE id = ?',
    );
    this.remove = db.prepare<[string]>('DELETE FROM integrations WHERE id = ?');
  }

  list(): Integration[] {
    return this.all.all().map(toIntegration);
  }

  get(id: string): Integration | undefined {
    const row = this.one.get(id);
    return row && toIntegration(row);
  }

  create(integration: Integration): Integration {
    const i = integration;
    this.insert.run(
      i.id,
      i.name,
      i.description,
      i.category,
      Number(i.rotateRefreshTokens),
      i.refreshGraceSec,
      Number(i.sample),
      i.createdAt,
      i.updatedAt,
    );
    return integration;
  }

  update(id: string, changes: IntegrationChanges, updatedAt: number): Integration | undefined {
    const current = this.get(id);
    if (!current) return undefined;
    const next = { ...current, ...changes, updatedAt };
    this.updateRow.run(
      next.name,
      next.description,
      next.category,
      Number(next.rotateRefreshTokens),
      next.refreshGraceSec,
      updatedAt,
      id,
    );
    return next;
  }

  /** Deletes the integration with its keys, redirect URIs, grants, codes and tokens. */
  delete(id: string): boolean {
    return this.remove.run(id).changes > 0;
  }
}
