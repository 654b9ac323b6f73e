/** Households: the unit a login user controls (docs/contract/platform.md §1.1). */
import type { SqliteDatabase } from '../database.js';

export interface Household {
  id: string;
  name: string;
  createdAt: number;
}

interface Row {
  id: string;
  name: string;
  created_at: number;
}

const toHousehold = (row: Row): Household => ({ id: row.id, name: row.name, createdAt: row.created_at });

export class HouseholdRepository {
  private readonly all;
  private readonly one;
  private readonly insert;

  constructor(db: SqliteDatabase) {
    this.all = db.prepare<[], Row>('SELECT * FROM households ORDER BY created_at, id');
    this.one = db.prepare<[string], Row>('SELECT * FROM households WHERE id = ?');
    this.insert = db.prepare<[string, string, number]>(
      'INSERT INTO households (id, name, created_at) VALUES (?, ?, ?)',
    );
  }

  list(): Household[] {
    return this.all.all().map(toHousehold);
  }

  get(id: string): Household | undefined {
    const row = this.one.get(id);
    return row && toHousehold(row);
  }

  create(household: Household): Household {
    this.insert.run(household.id, household.name, household.createdAt);
    return household;
  }
}
