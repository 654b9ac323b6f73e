/**
 * What the check stage's typecheck and lint learned in one run, kept for the next on this machine
 * (docs/decisions/check-cache.md): TypeScript's incremental state of each project, and ESLint's
 * results by file content. A clean clone's check then reads what changed since the last run
 * instead of every file: about 75 s of the stage's 150 s on the 2-core runner.
 *
 * Each job's file lives in the project (node_modules/.cache/cloud-queue-console/, where the tools
 * read and write it) and, between runs, in the user's cache, in a folder per package-lock.json
 * (so a new ESLint plugin, which ESLint's own cache would not notice, starts afresh):
 *
 * - TypeScript's build info names files relative to itself, so it moves between clones as it is;
 *   TypeScript hashes each file's text and checks again what changed and what depends on it.
 * - ESLint names files by absolute path: the copy kept names the project's folder by a mark,
 *   which the next clone's copy replaces with its own. ESLint keys each result by the file's
 *   content and the configuration that applies to it (`--cache-strategy content`); none of the
 *   project's rules reads another file (no type-aware rule), so a result stands for its content.
 *
 * Prettier is left out: its cache hashes the options of each file, absolute path included, so no
 * copy can carry over. A cache is a speed-up only: a file that cannot be read or written is left
 * out, and the tool then does the whole work, as without it. `CQC_CHECK_CACHE=off` runs without.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chosenCacheFolder } from './user-cache.mjs';

/** Where the tools read and write their files, relative to the project's folder. */
export const PROJECT_CACHE = join('node_modules', '.cache', 'cloud-queue-console');

/** How a kept ESLint cache names the project's folder; no path starts with it. */
export const ROOT_MARK = '<cloud-queue-console project>';

/** The lockfile's hash (short), or a name for its absence: what each kept cache is filed under. */
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

/** The user's folder for this lockfile's caches, or null (`CQC_CHECK_CACHE=off`). */
export function checkCacheFolder(root, env = process.env) {
  const folder = chosenCacheFolder('CQC_CHECK_CACHE', 'check', env);
  return folder && join(folder, lockKey(root));
}

/** A typecheck of one TypeScript project, incremental, its build info kept as `<name>.tsbuildinfo`. */
export function typecheckJob(name, project) {
  const file = `${name.replaceAll(/[^a-z0-9]+/gi, '-')}.tsbuildinfo`;
  return {
    name,
    command: 'tsc',
    args: ['-p', project, '--incremental', '--tsBuildInfoFile', join(PROJECT_CACHE, file)],
    cache: { file, relocate: false },
  };
}

/** ESLint over the project, its results kept by content. */
export function lintJob(name, args) {
  const file = 'eslint.cache';
  return {
    name,
    command: 'eslint',
    args: [...args, '--cache', '--cache-strategy', 'content', '--cache-location', join(PROJECT_CACHE, file)],
    cache: { file, relocate: true },
  };
}

/** `text` with every path under `from` (a folder) said under `to`; both as JSON writes them. */
export function relocated(text, from, to) {
  const quoted = (path) => JSON.stringify(path).slice(1, -1);
  const escaped = quoted(from).replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The folder itself, or followed by a separator (`/`, or `\` as JSON writes it): never a longer name.
  return text.replaceAll(new RegExp(`${escaped}(?=/|\\\\\\\\|")`, 'g'), () => quoted(to));
}

/** Writes `text` aside and renames it into place: a reader never sees half a file. */
function writeWhole(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
  try {
    writeFileSync(partial, text);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
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

/**
 * Before the job: offers the kept file to a project that has none of its own (a fresh clone, or a
 * fresh install, which empties node_modules). True when one was offered.
 */
export function restore(root, cache, folder) {
  const own = join(root, PROJECT_CACHE, cache.file);
  if (!folder || existsSync(own)) return false;
  const text = readJson(join(folder, cache.file));
  if (text === null) return false;
  try {
    writeWhole(own, cache.relocate ? relocated(text, ROOT_MARK, root) : text);
    return true;
  } catch {
    return false;
  }
}

/** After the job: keeps what the tool wrote for the next clone. True when it was kept. */
export function keep(root, cache, folder) {
  const own = join(root, PROJECT_CACHE, cache.file);
  if (!folder) return false;
  const text = readJson(own);
  if (text === null) return false;
  try {
    writeWhole(join(folder, cache.file), cache.relocate ? relocated(text, root, ROOT_MARK) : text);
    return true;
  } catch {
    return false;
  }
}
