/**
 * The refusal of a console database that cannot be used as it is (docs/contract/console.md §9):
 * the start stops with one line that names the file and the choices, and nothing is changed.
 */

/** The choices for a database that SQLite finds damaged. */
export const DAMAGED_REMEDY =
  'Move it aside (with its -wal and -shm files and console.state) or put back a backup, then start again: without it the console starts empty';

export class DamagedDatabaseError extends Error {
  readonly code = 'database_damaged';
  readonly file: string;

  /** `what`: why, in a few words; `remedy`: the choices; `subject`: how the file is named. */
  constructor(
    file: string,
    what: string,
    { remedy = DAMAGED_REMEDY, subject = 'the console database', state = 'is damaged' } = {},
  ) {
    // One line: the CLI prints it as it is, and SQLite's check reports come in several.
    super(`${subject} ${file} ${state} (${what.replace(/\s+/g, ' ').trim()}); nothing was changed. ${remedy}`);
    this.name = 'DamagedDatabaseError';
    this.file = file;
  }
}
