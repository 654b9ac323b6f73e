/**
 * What to do when better-sqlite3 has no native module for this Node.js. The console keeps its
 * data in SQLite through better-sqlite3, whose install script downloads or builds that module;
 * npm 12 runs a dependency's install script only once the installing project approves it (npm
 * 11.16+ already warns: "install scripts not yet covered by allowScripts"), `--ignore-scripts`
 * skips it, and a Node.js upgrade leaves a module built for the old one. The error that followed
 * was a list of thirteen paths the module was looked for at, which says nothing of the remedy.
 */
import { messageOf } from '../engine/api/errors.js';

const REMEDY =
  'In the folder it was installed in, run `npm rebuild better-sqlite3` (with npm 12, `npm install-scripts approve better-sqlite3` first; for a global install, `npm install -g --allow-scripts=better-sqlite3 cloud-queue-console`).';

/** The error in words with its remedy, when it is better-sqlite3's native module missing or built for another Node.js; else null. */
export function nativeModuleProblem(error: unknown): string | null {
  const message = messageOf(error);
  if (message.includes('Could not locate the bindings file') && message.includes('better_sqlite3.node'))
    return `better-sqlite3, which keeps the console's data, has no native module built: its install script did not run (npm 12 runs a dependency's install script only once approved; --ignore-scripts skips it). ${REMEDY}`;
  if (message.includes('better_sqlite3.node') && message.includes('NODE_MODULE_VERSION'))
    return `better-sqlite3, which keeps the console's data, was built for another Node.js version than this one (${process.version}). ${REMEDY}`;
  return null;
}
