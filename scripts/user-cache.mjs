/**
 * The folder where the project keeps, per user and machine, what one clone's install or check
 * learned for the next clone's: `$XDG_CACHE_HOME/cloud-queue-console/<name>` when that variable is
 * an absolute path (as the XDG spec asks), else `~/.cache/cloud-queue-console/<name>`. Plain Node:
 * the install on a first run uses it before anything is installed.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export function userCacheFolder(name, env = process.env) {
  const xdg = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : null;
  return join(xdg ?? join(homedir(), '.cache'), 'cloud-queue-console', name);
}

/**
 * The folder for `name`, or one a variable names instead (`off` for none): how each cache is
 * set aside for one run, and what its tests point elsewhere.
 */
export function chosenCacheFolder(variable, name, env = process.env) {
  const chosen = env[variable];
  if (chosen === 'off') return null;
  return chosen || userCacheFolder(name, env);
}
