/**
 * The OAuth flow inspector's records: one row per flow and its steps in order. Kept across
 * restarts; only the newest flows are kept (see `prune`).
 */
import type { FlowOrigin, FlowStatus, FlowStepDetail, FlowStepKind, FlowStepView, FlowSummary } from '../../api/oauth-types.js';
import type { SqliteDatabase } from '../database.js';

export interface FlowRecord {
  id: string;
  origin: FlowOrigin;
  integrationId: string | null;
  integrationName: string | null;
  clientId: string | null;
  status: FlowStatus;
  startedAt: number;
  updatedAt: number;
}

interface FlowRow {
  id: string;
  origin: FlowOrigin;
  integration_id: string | null;
  integration_name: string | null;
  client_id: string | null;
  status: FlowStatus;
  started_at: number;
  updated_at: number;
  step_count: number;
}

interface StepRow {
  seq: number;
  flow_id: string;
  at: number;
  kind: FlowStepKind;
  ok: number;
  summary: string;
  detail: string;
}

const toSummary = (row: FlowRow): FlowSummary => ({
  id: row.id,
  origin: row.origin,
  integrationId: row.integration_id,
  integrationName: row.integration_name,
  clientId: row.client_id,
  status: row.status,
  startedAt: row.started_at,
  updatedAt: row.updated_at,
  stepCount: row.step_count,
});

const toStep = (row: StepRow): FlowStepView => ({
  seq: row.seq,
  flowId: row.flow_id,
  at: row.at,
  kind: row.kind,
  ok: row.ok === 1,
  summary: row.summary,
  detail: JSON.parse(row.detail) as FlowStepDetail,
});

const SUMMARY_COLUMNS = 'f.*, (SELECT COUNT(*) FROM oauth_flow_steps s WHERE s.flow_id = f.id) AS step_count';

export class OAuthFlowRepository {
  private readonly one;
  private readonly newest;
  private readonly insert;
  private readonly status;
  private readonly client;
  private readonly touch;
  private readonly insertStep;
  private readonly steps;
  private readonly pruneRows;

  constructor(db: SqliteDatabase) {
    this.one = db.prepare<[string], FlowRow>(`SELECT ${SUMMARY_COLUMNS} FROM oauth_flows f WHERE f.id = ?`);
    this.newest = db.prepare<[number], FlowRow>(`SELECT ${SUMMARY_COLUMNS} FROM oauth_flows f ORDER BY f.started_at DESC, f.rowid DESC LIMIT ?`);
    this.insert = db.prepare<[string, FlowOrigin, string | null, string | null, string | null, FlowStatus, number, number]>(
      `INSERT INTO oauth_flows (id, origin, integration_id, integration_name, client_id, status, started_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.status = db.prepare<[FlowStatus, number, string]>('UPDATE oauth_flows SET status = ?, updated_at = ? WHERE id = ?');
    this.client = db.prepare<[string | null, string | null, string | null, string]>(
      'UPDATE oauth_flows SET integration_id = ?, integration_name = ?, client_id = ? WHERE id = ?',
    );
    this.touch = db.prepare<[number, string]>('UPDATE oauth_flows SET updated_at = ? WHERE id = ?');
    this.insertStep = db.prepare<[string, number, FlowStepKind, number, string, string]>(
      'INSERT INTO oauth_flow_steps (flow_id, at, kind, ok, summary, detail) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.steps = db.prepare<[string], StepRow>('SELECT * FROM oauth_flow_steps WHERE flow_id = ? ORDER BY seq');
    this.pruneRows = db.prepare<[number]>(
      'DELETE FROM oauth_flows WHERE id NOT IN (SELECT id FROM oauth_flows ORDER BY started_at DESC, rowid DESC LIMIT ?)',
    );
  }

  get(id: string): FlowSummary | undefined {
    const row = this.one.get(id);
    return row && toSummary(row);
  }

  /** The newest flows first. */
  list(limit: number): FlowSummary[] {
    return this.newest.all(limit).map(toSummary);
  }

  create(flow: FlowRecord): void {
    const f = flow;
    this.insert.run(f.id, f.origin, f.integrationId, f.integrationName, f.clientId, f.status, f.startedAt, f.updatedAt);
  }

  setStatus(id: string, status: FlowStatus, at: number): void {
    this.status.run(status, at, id);
  }

  setClient(id: string, integrationId: string | null, integrationName: string | null, clientId: string | null): void {
    this.client.run(integrationId, integrationName, clientId, id);
  }

  addStep(step: Omit<FlowStepView, 'seq'>): FlowStepView {
    const info = this.insertStep.run(step.flowId, step.at, step.kind, Number(step.ok), step.summary, JSON.stringify(step.detail));
    this.touch.run(step.at, step.flowId);
    return { ...step, seq: Number(info.lastInsertRowid) };
  }

  listSteps(flowId: string): FlowStepView[] {
    return this.steps.all(flowId).map(toStep);
  }

  /** Keeps only the newest `keep` flows (their steps go with them). */
  prune(keep: number): number {
    return this.pruneRows.run(keep).changes;
  }
}
