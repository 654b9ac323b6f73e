/** Fault rules, in matching order (the first matching rule wins): as added, unless moved since. */
import type { FaultRule } from '../../api/fault-types.js';
import type { SqliteDatabase } from '../database.js';

export class FaultRuleRepository {
  private readonly all;
  private readonly upsert;
  private readonly update;
  private readonly remove_;
  private readonly clear_;
  private readonly nextPosition;
  private readonly place;
  private readonly reorder_;

  constructor(db: SqliteDatabase) {
    this.all = db.prepare<[], { rule: string }>('SELECT rule FROM fault_rules ORDER BY position');
    this.upsert = db.prepare<[string, number, string]>(
      'INSERT INTO fault_rules (id, position, rule) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET rule = excluded.rule',
    );
    this.update = db.prepare<[string, string]>('UPDATE fault_rules SET rule = ? WHERE id = ?');
    this.remove_ = db.prepare<[string]>('DELETE FROM fault_rules WHERE id = ?');
    this.clear_ = db.prepare('DELETE FROM fault_rules');
    this.nextPosition = db.prepare<[], { next: number }>(
      'SELECT COALESCE(MAX(position), 0) + 1 AS next FROM fault_rules',
    );
    this.place = db.prepare<[number, string]>('UPDATE fault_rules SET position = ? WHERE id = ?');
    // All positions in one commit: a restart never finds half a reordering.
    this.reorder_ = db.transaction((ids: readonly string[]) =>
      ids.forEach((id, index) => this.place.run(index + 1, id)),
    );
  }

  list(): FaultRule[] {
    return this.all.all().map((row) => JSON.parse(row.rule) as FaultRule);
  }

  add(rule: FaultRule): void {
    this.upsert.run(rule.id, this.nextPosition.get()!.next, JSON.stringify(rule));
  }

  /** Saves a rule's counters (position stays). */
  save(rule: FaultRule): void {
    this.update.run(JSON.stringify(rule), rule.id);
  }

  /** Stores the matching order: `ids` first to last (every rule's id, as the registry holds them). */
  reorder(ids: readonly string[]): void {
    this.reorder_(ids);
  }

  remove(id: string): boolean {
    return this.remove_.run(id).changes > 0;
  }

  clear(): number {
    return this.clear_.run().changes;
  }
}
