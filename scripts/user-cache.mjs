/**
 * The folder where the project keeps, per user and machine, what one clone's install or check
 * learned for the next clone's: `$XDG_CACHE_HOME/cloud-queue-console/<name>` when that variable is
 * an absolute path (as the XDG spec asks), else `~/.cache/cloud-queue-console/<name>`. Plain Node:
 * the install on a first run uses it before anything is installed.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** The folder for `name`; null where the user has no home folder (no HOME, no passwd entry). */
export function userCacheFolder(name, env = process.env) {
  const xdg = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : null;
  if (xdg) return join(xdg, 'cloud-queue-console', name);
  try {
    return join(homedir(), '.cache', 'cloud-queue-console', name);
  } catch {
    return null;
  }
}

/**
 * The folder for `name`, or one a variable names instead (`off` for none; a relative one from the
 * current folder): how each cache is set aside for one run, and what its tests point elsewhere.
 */
export function chosenCacheFolder(variable, name, env = process.env) {
  const chosen = env[variable];
  if (chosen === 'off') return null;
  return chosen ? resolve(chosen) : userCacheFolder(name, env);
}

/**
 * Puts `file` in place whole: `write(partial)` writes it under another name beside it (true when
 * it did), then it is renamed over `file`, so a reader sees the old file or the new one, never
 * half of one. False, and nothing left behind, when it could not be written.
 */
export function writeAside(file, write) {
  const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    if (!write(partial)) return false;
    renameSync(partial, file);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(partial, { force: true });
  }
}
