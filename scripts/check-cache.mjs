/**
 * What the check stage's typecheck and lint learned in one run, kept for the next on this machine
 * (docs/decisions/check-cache.md): TypeScript's incremental state of each project, and ESLint's
 * results by file content. A clean clone's check then reads what changed since the last run
 * instead of every file: the stage took 55–72 s against 152 s on the 2-core runner.
 *
 * Each job's file lives in two places, both in a folder per package-lock.json (so that a new
 * ESLint plugin, which ESLint's own cache would not notice, starts afresh, in the project too
 * after an `npm install`, which keeps node_modules):
 *
 * - the project's, node_modules/.cache/cloud-queue-console/<lockfile>/, which the tool reads and
 *   writes;
 * - the user's (user-cache.mjs), between runs: offered to a project that has none of its own (a
 *   fresh clone), and given what the tool wrote in this run.
 *
 * TypeScript's build info names files relative to itself, so it moves between clones as it is;
 * TypeScript hashes each file's text and checks again what changed and what depends on it. ESLint
 * names files by absolute path: the copy kept names the project's folder by a mark, which the next
 * clone's copy replaces with its own. ESLint keys each result by the file's content and the
 * configuration that applies to it (`--cache-strategy content`); none of the project's rules reads
 * another file (no type-aware rule), so a result stands for its content.
 *
 * Prettier is left out: its cache hashes the options of each file, absolute path included, so no
 * copy can carry over. A cache is a speed-up only: a kept file that is not whole JSON is not
 * offered, and one the tool did not write in this run is not kept. `CQC_CHECK_CACHE=off` runs the
 * tools without their caches, as they run alone.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chosenCacheFolder, writeAside } from './user-cache.mjs';

/** Where the tools read and write their files, relative to the project's folder. */
export const PROJECT_CACHE = join('node_modules', '.cache', 'cloud-queue-console');

/** How a kept ESLint cache names the project's folder; no path starts with it. */
export const ROOT_MARK = '<cloud-queue-console project>';

/** The lockfile's hash (short), or a name for its absence: what each cache is filed under. */
function lockKey(root) {
  try {
    return createHash('sha256')
      .update(readFileSync(join(root, 'package-lock.json')))
      .digest('hex')
      .slice(0, 16);
  } catch {
    return 'no-lockfile';
  }
}

/**
 * The project `root`'s folders for this lockfile's caches, its own and the user's; null when
 * switched off (`CQC_CHECK_CACHE=off`) or when the user has no cache folder.
 */
export function checkCachePlaces(root, env = process.env) {
  const user = chosenCacheFolder('CQC_CHECK_CACHE', 'check', env);
  if (!user) return null;
  const key = lockKey(root);
  return { root, project: join(root, PROJECT_CACHE, key), user: join(user, key) };
}

/** A typecheck of one TypeScript project, incremental with a cache: its build info `<name>.tsbuildinfo`. */
export function typecheckJob(name, project) {
  return {
    name,
    command: 'tsc',
    args: ['-p', project],
    cache: {
      file: `${name.replaceAll(/[^a-z0-9]+/gi, '-')}.tsbuildinfo`,
      relocate: false,
      flags: (file) => ['--incremental', '--tsBuildInfoFile', file],
    },
  };
}

/** ESLint with `args`, with a cache: its results kept by content. */
export function lintJob(name, args) {
  return {
    name,
    command: 'eslint',
    args,
    cache: {
      file: 'eslint.cache',
      relocate: true,
      flags: (file) => ['--cache', '--cache-strategy', 'content', '--cache-location', file],
    },
  };
}

/** A job's arguments: with its cache's flags where there are places for it. */
export function argsOf(job, places) {
  return job.cache && places ? [...job.args, ...job.cache.flags(join(places.project, job.cache.file))] : job.args;
}

/**
 * `text` with every path under `from` (a folder) said under `to`, both as JSON writes them: only a
 * whole string that starts with the folder (a key, a file's path), never a longer folder's name.
 */
export function relocated(text, from, to) {
  const quoted = (path) => JSON.stringify(path).slice(1, -1);
  const escaped = quoted(from).replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Followed by a separator (`/`, or `\` as JSON writes it) or the string's end.
  return text.replaceAll(new RegExp(`(?<=")${escaped}(?=/|\\\\\\\\|")`, 'g'), () => quoted(to));
}

/** A file that is whole JSON (both tools' caches are), or null: a torn or foreign one is not offered. */
function readJson(file) {
  try {
    const text = readFileSync(file, 'utf8');
    JSON.parse(text);
    return text;
  } catch {
    return null;
  }
}

/** Writes `text` to `file` whole (user-cache.mjs); false when it could not. */
function writeWhole(file, text) {
  return writeAside(file, (partial) => {
    writeFileSync(partial, text);
    return true;
  });
}

/** Before the job: offers the kept file to a project that has none of its own. True when it did. */
export function restore(places, cache) {
  const own = join(places.project, cache.file);
  if (existsSync(own)) return false;
  const text = readJson(join(places.user, cache.file));
  return text !== null && writeWhole(own, cache.relocate ? relocated(text, ROOT_MARK, places.root) : text);
}

/**
 * After the job: keeps what the tool wrote since `since` (ms) for the next clone. A file it did
 * not write is not kept: one offered that it could not use stays out of the next clone's way.
 */
export function keep(places, cache, since) {
  const own = join(places.project, cache.file);
  try {
    if (statSync(own).mtimeMs < since) return false;
  } catch {
    return false;
  }
  const text = readJson(own);
  return (
    text !== null &&
    writeWhole(join(places.user, cache.file), cache.relocate ? relocated(text, places.root, ROOT_MARK) : text)
  );
}
