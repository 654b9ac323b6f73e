/** Saved scenarios and the report of each one's last run. */
import type { Scenario, ScenarioReport } from '../../api/scenario-types.js';
import type { SqliteDatabase } from '../database.js';

interface Row {
  id: string;
  name: string;
  definition: string;
  created_at: number;
  last_report: string | null;
}

export interface StoredScenario extends Scenario {
  lastReport: ScenarioReport | null;
}

const toScenario = (row: Row): StoredScenario => ({
  ...(JSON.parse(row.definition) as Omit<Scenario, 'id' | 'createdAt'>),
  id: row.id,
  createdAt: row.created_at,
  lastReport: row.last_report ? (JSON.parse(row.last_report) as ScenarioReport) : null,
});

export class ScenarioRepository {
  private readonly all;
  private readonly one;
  private readonly upsert;
  private readonly report;
  private readonly remove_;

  constructor(db: SqliteDatabase) {
    this.all = db.prepare<[], Row>('SELECT * FROM scenarios ORDER BY created_at, id');
    this.one = db.prepare<[string], Row>('SELECT * FROM scenarios WHERE id = ?');
    this.upsert = db.prepare<[string, string, string, number]>(
      'INSERT INTO scenarios (id, name, definition, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name, definition = excluded.definition',
    );
    this.report = db.prepare<[string, string]>('UPDATE scenarios SET last_report = ? WHERE id = ?');
    this.remove_ = db.prepare<[string]>('DELETE FROM scenarios WHERE id = ?');
  }

  list(): StoredScenario[] {
    return this.all.all().map(toScenario);
  }

  get(id: string): StoredScenario | undefined {
    const row = this.one.get(id);
    return row && toScenario(row);
  }

  save(scenario: Scenario): void {
    const { id, createdAt, ...definition } = scenario;
    this.upsert.run(id, scenario.name, JSON.stringify(definition), createdAt);
  }

  saveReport(id: string, report: ScenarioReport): void {
    this.report.run(JSON.stringify(report), id);
  }

  remove(id: string): boolean {
    return this.remove_.run(id).changes > 0;
  }
}
