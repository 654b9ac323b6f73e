/**
 * The OAuth flow inspector's records: one row per flow and its steps in order. Kept across
 * restarts; only the newest flows are kept (see `prune`). A step is one row appended; the flow's
 * row changes only when its status does (step count and last update are read from the steps),
 * so recording a step writes as little as it can.
 */
import type {
  FlowOrigin,
  FlowStatus,
  FlowStepDetail,
  FlowStepKind,
  FlowStepView,
  FlowSummary,
} from '../../api/oauth-types.js';
import type { SqliteDatabase } from '../database.js';

export type FlowRecord = Omit<FlowSummary, 'stepCount' | 'updatedAt'>;

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

/** A flow's row with its step count and the time of its last step. */
const SUMMARY = `f.*,
  (SELECT COUNT(*) FROM oauth_flow_steps s WHERE s.flow_id = f.id) AS step_count,
  COALESCE((SELECT MAX(s.at) FROM oauth_flow_steps s WHERE s.flow_id = f.id), f.started_at) AS updated_at`;

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

export class OAuthFlowRepository {
  private readonly one;
  private readonly exists;
  private readonly newest;
  private readonly insert;
  private readonly client;
  private readonly status;
  private readonly insertStep;
  private readonly steps;
  private readonly pruneRows;

  constructor(db: SqliteDatabase) {
    this.one = db.prepare<[string], FlowRow>(`SELECT ${SUMMARY} FROM oauth_flows f WHERE f.id = ?`);
    this.exists = db.prepare<[string], { found: number }>('SELECT 1 AS found FROM oauth_flows WHERE id = ?');
    this.newest = db.prepare<[number], FlowRow>(
      `SELECT ${SUMMARY} FROM oauth_flows f ORDER BY f.started_at DESC, f.rowid DESC LIMIT ?`,
    );
    this.insert = db.prepare<[string, FlowOrigin, string | null, string | null, string | null, FlowStatus, number]>(
      `INSERT INTO oauth_flows (id, origin, integration_id, integration_name, client_id, status, started_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.client = db.prepare<[string | null, string | null, string | null, string]>(
      'UPDATE oauth_flows SET integration_id = ?, integration_name = ?, client_id = ? WHERE id = ?',
    );
    this.status = db.prepare<[FlowStatus, string, FlowStatus]>(
      'UPDATE oauth_flows SET status = ? WHERE id = ? AND status <> ?',
    );
    this.insertStep = db.prepare<[string, number, FlowStepKind, number, string, string]>(
      'INSERT INTO oauth_flow_steps (flow_id, at, kind, ok, summary, detail) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.steps = db.prepare<[string], StepRow>('SELECT * FROM oauth_flow_steps WHERE flow_id = ? ORDER BY seq');
    // The rows past the newest `keep`, walked in the index: `id NOT IN (the newest)` scanned the
    // whole table against a list of them, and cost more than recording the flow it made room for.
    this.pruneRows = db.prepare<[number]>(
      'DELETE FROM oauth_flows WHERE rowid IN (SELECT rowid FROM oauth_flows ORDER BY started_at DESC, rowid DESC LIMIT -1 OFFSET ?)',
    );
  }

  get(id: string): FlowSummary | undefined {
    const row = this.one.get(id);
    return row && toSummary(row);
  }

  has(id: string): boolean {
    return this.exists.get(id) !== undefined;
  }

  /** The newest flows first. */
  list(limit: number): FlowSummary[] {
    return this.newest.all(limit).map(toSummary);
  }

  create(flow: FlowRecord): void {
    const f = flow;
    this.insert.run(f.id, f.origin, f.integrationId, f.integrationName, f.clientId, f.status, f.startedAt);
  }

  setClient(id: string, integrationId: string | null, integrationName: string | null, clientId: string | null): void {
    this.client.run(integrationId, integrationName, clientId, id);
  }

  /**
   * Appends a step; the flow's status changes to `status` when given. Answers the step and the
   * flow as it stands after it. Call inside a transaction.
   */
  addStep(step: Omit<FlowStepView, 'seq'>, status?: FlowStatus): { step: FlowStepView; flow: FlowSummary } {
    return { step: this.appendStep(step, status), flow: toSummary(this.one.get(step.flowId)!) };
  }

  /**
   * `addStep` without reading the flow back: its summary (a COUNT and a MAX over its steps) is
   * only wanted for the step's event, and a token exchange nobody watches need not pay for it.
   */
  appendStep(step: Omit<FlowStepView, 'seq'>, status?: FlowStatus): FlowStepView {
    const info = this.insertStep.run(
      step.flowId,
      step.at,
      step.kind,
      Number(step.ok),
      step.summary,
      JSON.stringify(step.detail),
    );
    if (status) this.status.run(status, step.flowId, status);
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
