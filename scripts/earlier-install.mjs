/**
 * The install that worked, kept while a new one runs: `npm ci` empties node_modules before it
 * fetches anything, so a lockfile changed by a pull, installed offline or with the registry down,
 * would leave a user who had a working install with none, and every command of the README
 * failing until they are online again. Without the install on first run they would have kept
 * it; the install on first run must not cost them it.
 *
 * Before `npm ci` the installed folder is moved aside (a rename: no copy); after an install that
 * worked it is removed (npm ci would have removed it anyway), after one that failed it is moved
 * back, and a mark in it names the lockfile it failed for, so that the next command does not try
 * again (and wait on the network again) until the lockfile changes or the user runs `npm ci`.
 */
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the earlier install waits while `npm ci` runs (ignored by git and the linters). */
export const ASIDE = '.node_modules-before-install';
const FAILED_MARK = '.cqc-install-failed';

/**
 * Moves the project's installed folder aside before an install; the folder it is in now, or null
 * when there is no install to keep (a fresh clone) or it cannot be moved (a file in use on
 * Windows): npm ci then runs as it always did. An earlier install left aside by a command killed
 * mid-install is the one kept: the folder in place is that half-done install.
 */
export function setAside(root) {
  const aside = join(root, ASIDE);
  if (existsSync(aside)) return aside;
  if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) return null;
  try {
    renameSync(join(root, 'node_modules'), aside);
    return aside;
  } catch {
    return null;
  }
}

/** After an install that worked: the earlier one is not needed. */
export function letGo(aside) {
  rmSync(aside, { recursive: true, force: true });
}

/**
 * After an install that failed: the earlier install back in place, marked as failed to update for
 * this lockfile. False when it could not be put back (it is left aside, and taken up next time).
 */
export function putBack(root, aside) {
  try {
    rmSync(join(root, 'node_modules'), { recursive: true, force: true });
    renameSync(aside, join(root, 'node_modules'));
    writeFileSync(join(root, 'node_modules', FAILED_MARK), lockStamp(root));
    return true;
  } catch {
    return false;
  }
}

/** Whether the install in place is one put back after an install for this very lockfile failed. */
export function failedForThisLock(root) {
  try {
    return readFileSync(join(root, 'node_modules', FAILED_MARK), 'utf8') === lockStamp(root);
  } catch {
    return false;
  }
}

/** The lockfile as it stands: its change time and size (a pull or an edit changes both, or one). */
function lockStamp(root) {
  const lock = statSync(join(root, 'package-lock.json'));
  return `${lock.mtimeMs} ${lock.size}`;
}
