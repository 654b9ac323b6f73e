/** Conformance runs, newest first, each one JSON document (see migration 14). */
import type { ConformanceRun, ConformanceRunSummary } from '../../api/conformance-types.js';
import type { SqliteDatabase } from '../database.js';

const summaryOf = ({ cases: _cases, ...summary }: ConformanceRun): ConformanceRunSummary => summary;

export class ConformanceRunRepository {
  private readonly upsert;
  private readonly one;
  private readonly newestFirst;
  private readonly withStatus;
  private readonly remove_;
  private readonly beyond;

  constructor(db: SqliteDatabase) {
    // An update keeps the run's place (its seq): a rerun is a new run, not this one moved up.
    this.upsert = db.prepare<[string, string, string]>(
      'INSERT INTO conformance_runs (id, status, run) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET status = excluded.status, run = excluded.run',
    );
    this.one = db.prepare<[string], string>('SELECT run FROM conformance_runs WHERE id = ?').pluck();
    this.newestFirst = db.prepare<[], string>('SELECT run FROM conformance_runs ORDER BY seq DESC').pluck();
    this.withStatus = db
      .prepare<[string], string>('SELECT run FROM conformance_runs WHERE status = ? ORDER BY seq')
      .pluck();
    this.remove_ = db.prepare<[string]>('DELETE FROM conformance_runs WHERE id = ?');
    this.beyond = db.prepare<[number]>(
      'DELETE FROM conformance_runs WHERE seq NOT IN (SELECT seq FROM conformance_runs ORDER BY seq DESC LIMIT ?)',
    );
  }

  save(run: ConformanceRun): void {
    this.upsert.run(run.id, run.status, JSON.stringify(run));
  }

  get(id: string): ConformanceRun | undefined {
    const json = this.one.get(id);
    return json === undefined ? undefined : (JSON.parse(json) as ConformanceRun);
  }

  list(): ConformanceRunSummary[] {
    return this.newestFirst.all().map((json) => summaryOf(JSON.parse(json) as ConformanceRun));
  }

  /** Runs stored as still running: a console that stopped in the middle of them. */
  running(): ConformanceRun[] {
    return this.withStatus.all('running').map((json) => JSON.parse(json) as ConformanceRun);
  }

  remove(id: string): boolean {
    return this.remove_.run(id).changes > 0;
  }

  /** Drops all but the newest `keep` runs; answers how many went. */
  keepNewest(keep: number): number {
    return this.beyond.run(keep).changes;
  }
}
