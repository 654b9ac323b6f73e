/** Login users: who may sign in at the login service, and which household they control. */
import type { SqliteDatabase } from '../database.js';

export interface User {
  id: string;
  username: string;
  passwordHash: string;
  householdId: string;
}

interface Row {
  id: string;
  username: string;
  password_hash: string;
  household_id: string;
}

const toUser = (row: Row): User => ({
  id: row.id,
  username: row.username,
  passwordHash: row.password_hash,
  householdId: row.household_id,
});

export class UserRepository {
  private readonly byUsername;
  private readonly byId;
  private readonly insert;

  constructor(db: SqliteDatabase) {
    this.byUsername = db.prepare<[string], Row>('SELECT * FROM users WHERE username = ?');
    this.byId = db.prepare<[string], Row>('SELECT * FROM users WHERE id = ?');
    this.insert = db.prepare<[string, string, string, string]>(
      'INSERT INTO users (id, username, password_hash, household_id) VALUES (?, ?, ?, ?)',
    );
  }

  findByUsername(username: string): User | undefined {
    const row = this.byUsername.get(username);
    return row && toUser(row);
  }

  get(id: string): User | undefined {
    const row = this.byId.get(id);
    return row && toUser(row);
  }

  create(user: User): User {
    this.insert.run(user.id, user.username, user.passwordHash, user.householdId);
    return user;
  }
}
