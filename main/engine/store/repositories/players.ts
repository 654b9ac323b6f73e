/** Players: the speakers of a household, each in exactly one group. */
import type { SqliteDatabase } from '../database.js';

export interface Player {
  id: string;
  householdId: string;
  groupId: string;
  name: string;
  /** Display order within the household. */
  position: number;
}

interface Row {
  id: string;
  household_id: string;
  group_id: string;
  name: string;
  position: number;
}

const toPlayer = (row: Row): Player => ({
  id: row.id,
  householdId: row.household_id,
  groupId: row.group_id,
  name: row.name,
  position: row.position,
});

export class PlayerRepository {
  private readonly all;
  private readonly one;
  private readonly insert;
  private readonly rename;
  private readonly regroup;
  private readonly remove;
  private readonly lastPosition;

  constructor(db: SqliteDatabase) {
    this.all = db.prepare<[], Row>('SELECT * FROM players ORDER BY household_id, position, id');
    this.rename = db.prepare<[string, string]>('UPDATE players SET name = ? WHERE id = ?');
    this.regroup = db.prepare<[string, string]>('UPDATE players SET group_id = ? WHERE id = ?');
    this.remove = db.prepare<[string]>('DELETE FROM players WHERE id = ?');
    this.lastPosition = db.prepare<[string], { position: number | null }>(
      'SELECT MAX(position) AS position FROM players WHERE household_id = ?',
    );
    this.one = db.prepare<[string], Row>('SELECT * FROM players WHERE id = ?');
    this.insert = db.prepare<[string, string, string, string, number]>(
      'INSERT INTO players (id, household_id, group_id, name, position) VALUES (?, ?, ?, ?, ?)',
    );
  }

  list(): Player[] {
    return this.all.all().map(toPlayer);
  }

  get(id: string): Player | undefined {
    const row = this.one.get(id);
    return row && toPlayer(row);
  }

  create(player: Player): Player {
    this.insert.run(player.id, player.householdId, player.groupId, player.name, player.position);
    return player;
  }

  setName(id: string, name: string): void {
    this.rename.run(name, id);
  }

  setGroup(id: string, groupId: string): void {
    this.regroup.run(groupId, id);
  }

  delete(id: string): void {
    this.remove.run(id);
  }

  /** The display position after every player of the household. */
  nextPosition(householdId: string): number {
    const { position } = this.lastPosition.get(householdId)!;
    return position === null ? 0 : position + 1;
  }
}
