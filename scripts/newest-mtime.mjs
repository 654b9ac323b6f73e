/**
 * The newest modification time under a path: what a build is older than when its sources changed
 * since (the UI's build before `npm run serve`, the CLI's before the tests that start it, the
 * pack check's before it packs again). Plain Node: `npm run serve` runs it before tsx.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The newest mtime of `path` and everything under it; 0 for a path that is not there. `skip(name)`
 * leaves an entry (a file or a folder and all in it) out; `filesOnly` leaves out folders' own
 * times, which a file written and renamed beside them (an editor's save, a test's temp file) moves.
 */
export function newestMtime(path, { skip = () => false, filesOnly = false } = {}) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = filesOnly ? 0 : stat.mtimeMs;
  for (const name of readdirSync(path))
    if (!skip(name)) newest = Math.max(newest, newestMtime(join(path, name), { skip, filesOnly }));
  return newest;
}
