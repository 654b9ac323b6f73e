/** Groups: players that play together, led by a coordinator. */
import type { SqliteDatabase } from '../database.js';

export interface Group {
  id: string;
  householdId: string;
  coordinatorId: string;
}

interface Row {
  id: string;
  household_id: string;
  coordinator_id: string;
}

const toGroup = (row: Row): Group => ({ id: row.id, householdId: row.household_id, coordinatorId: row.coordinator_id });

export class GroupRepository {
  private readonly all;
  private readonly one;
  private readonly insert;
  private readonly coordinate;
  private readonly remove;

  constructor(db: SqliteDatabase) {
    this.coordinate = db.prepare<[string, string]>('UPDATE groups SET coordinator_id = ? WHERE id = ?');
    this.remove = db.prepare<[string]>('DELETE FROM groups WHERE id = ?');
    this.all = db.prepare<[], Row>('SELECT * FROM groups ORDER BY household_id, id');
    this.one = db.prepare<[string], Row>('SELECT * FROM groups WHERE id = ?');
    this.insert = db.prepare<[string, string, string]>(
      'INSERT INTO groups (id, household_id, coordinator_id) VALUES (?, ?, ?)',
    );
  }

  list(): Group[] {
    return this.all.all().map(toGroup);
  }

  get(id: string): Group | undefined {
    const row = this.one.get(id);
    return row && toGroup(row);
  }

  create(group: Group): Group {
    this.insert.run(group.id, group.householdId, group.coordinatorId);
    return group;
  }

  setCoordinator(id: string, coordinatorId: string): void {
    this.coordinate.run(coordinatorId, id);
  }

  delete(id: string): void {
    this.remove.run(id);
  }
}
