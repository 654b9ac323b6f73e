/**
 * Runs first in every command of the README's script table (`npm start`, `npm test`, `npm run
 * serve`, `build`, `typecheck`, `lint`, `bench`), with nothing but Node: on a fresh clone (no
 * node_modules) or after package-lock.json changed since the last install, it installs the
 * dependencies with `npm ci`, so each command works as the README writes it. Electron's binary is
 * not part of this: Electron fetches it on first use, and `npm start` copes when it cannot.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { failedForThisLock, letGo, putBack, setAside } from './earlier-install.mjs';
import { binaryCache, cachedPrebuild, keepPrebuild } from './sqlite-prebuild.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lockfile = join(root, 'package-lock.json');
// npm writes this hidden lockfile at the end of every install.
const installed = join(root, 'node_modules/.package-lock.json');
const sqliteDir = join(root, 'node_modules/better-sqlite3');

export function installIsCurrent() {
  return existsSync(installed) && statSync(installed).mtimeMs >= statSync(lockfile).mtimeMs;
}

/** The better-sqlite3 version package-lock.json pins; null when it pins none (or npm is left to say what is wrong with it). */
function lockedSqliteVersion() {
  try {
    const lock = JSON.parse(readFileSync(lockfile, 'utf8'));
    return lock.packages?.['node_modules/better-sqlite3']?.version ?? null;
  } catch {
    return null;
  }
}

/** Runs npm with `args` (its output on our stderr); its exit status. */
function npm(args) {
  // Under npm, npm_execpath is npm's own entry: the same npm, on every OS, without a shell.
  const execpath = process.env.npm_execpath;
  const options = { cwd: root, stdio: ['ignore', process.stderr, process.stderr] };
  const result = execpath
    ? spawnSync(process.execPath, [execpath, ...args], options)
    : spawnSync('npm', args, { ...options, shell: process.platform === 'win32' });
  return result.status ?? result.signal;
}

/**
 * Installs with `npm ci` unless the install is current. Where better-sqlite3's binary cannot be
 * downloaded it is compiled (about 95 s of one core, most of an install): the install keeps a
 * binary it compiled in the user's cache (scripts/sqlite-prebuild.mjs), and the next install on
 * this machine, another clone's or after the lockfile changed, takes it from there, through its
 * installer's own setting for a folder of local prebuilds.
 */
export function ensureInstall() {
  if (installIsCurrent() || keptAfterFailure()) return;
  const turn = takeInstallTurn();
  let done = true;
  try {
    // Another command may have installed while this one waited, or failed to and put back the
    // install from before: this one goes on with that too, rather than wait on the network again.
    if (!installIsCurrent() && !keptAfterFailure()) done = install();
  } finally {
    if (turn) rmSync(turnDir, { recursive: true, force: true });
  }
  if (!done) process.exit(1);
}

/** Whether the install in place was put back after an install for this lockfile failed; says so. */
function keptAfterFailure() {
  if (!failedForThisLock(root)) return false;
  process.stderr.write(KEPT_NOTE);
  return true;
}

// Two commands started side by side on a fresh clone (`npm start` in one terminal, `npm test` in
// another) would run two `npm ci` into one node_modules, and each breaks the other's. The first
// takes the turn by making this folder (an atomic step on every OS), with its process id inside.
const turnDir = join(root, '.install-turn');
const ownerFile = join(turnDir, 'pid');
const TURN_WAIT_MS = 15 * 60_000;

/** Whether the command holding the turn still runs: one killed mid-install (Ctrl-C) leaves it behind. */
function ownerRuns() {
  let pid;
  try {
    pid = Number(readFileSync(ownerFile, 'utf8'));
  } catch {
    // Made, its id not written yet; or left so by a kill between the two steps.
    return Date.now() - statSync(turnDir, { throwIfNoEntry: false })?.mtimeMs < 10_000;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Waits for another command's install here to end, then takes the turn; false where no turn can be taken (a folder it cannot write). */
function takeInstallTurn() {
  const since = Date.now();
  let told = false;
  for (;;) {
    try {
      mkdirSync(turnDir);
      writeFileSync(ownerFile, String(process.pid));
      return true;
    } catch (error) {
      if (error.code !== 'EEXIST') return false;
    }
    if (!ownerRuns()) {
      rmSync(turnDir, { recursive: true, force: true });
      continue;
    }
    if (!told) process.stderr.write('another command is installing the dependencies here; waiting for it…\n');
    told = true;
    if (Date.now() - since > TURN_WAIT_MS) {
      process.stderr.write(`still installing after ${TURN_WAIT_MS / 60_000} min; if nothing is, remove ${turnDir}\n`);
      process.exit(1);
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
  }
}

/**
 * The install is a whole one, whatever npm settings the command that needed it came with: the
 * command goes on to build and run, so `npm pack --dry-run` (whose prepack builds) must not make it
 * a dry run, nor NODE_ENV=production or an `omit=dev` setting leave out the build's tools. Flags,
 * because npm reads its command line over its environment and the user's .npmrc.
 */
const INSTALL_FLAGS = ['--no-audit', '--no-fund', '--json=false', '--dry-run=false', '--include=dev'];

const KEPT_NOTE =
  'going on with the install from before package-lock.json changed (it may lack what the change added); `npm ci` tries again\n';

/**
 * `npm ci`, its SQLite binary taken from or kept in the user's cache; false when it failed (said
 * why) and left no install. One that failed where an install worked before puts that one back
 * (scripts/earlier-install.mjs), and the command goes on with it.
 */
function install() {
  process.stderr.write(
    existsSync(installed)
      ? 'package-lock.json changed: installing dependencies (npm ci)…\n'
      : 'first run: installing dependencies (npm ci; the README gives the times measured)…\n',
  );
  const cache = binaryCache();
  const version = lockedSqliteVersion();
  const kept = version ? cachedPrebuild(cache, version) : null;
  const offered = kept ? offerLocalPrebuilds(cache) : null;
  const earlier = setAside(root);
  let status;
  try {
    status = npm(['ci', ...INSTALL_FLAGS]);
  } finally {
    if (offered) rmSync(offered, { force: true });
  }
  if (status !== 0) {
    process.stderr.write(
      `installing the dependencies failed (npm ci exited ${status ?? 'without starting'}); see npm's messages above\n`,
    );
    if (earlier === null || !putBack(root, earlier)) return false;
    process.stderr.write(KEPT_NOTE);
    return true;
  }
  if (earlier) letGo(earlier);
  const outcome = sqliteOutcome(offered ? kept : null, wasCompiled(sqliteDir));
  if (outcome === 'took the kept binary')
    process.stderr.write(`better-sqlite3: the binary an earlier install here compiled (${kept})\n`);
  else if (outcome === 'keep' && keepPrebuild(cache, sqliteDir))
    process.stderr.write(`better-sqlite3: compiled, and kept in ${cache} for the next install here\n`);
  return true;
}

/** prebuild-install's settings file, found from the folder an install script runs in up to the root. */
export const PREBUILD_RC = '.prebuild-installrc';

/**
 * Points prebuild-install at `cache` for this install: a `.prebuild-installrc` in the project's
 * folder, which its settings module (rc) finds by walking up from the package it installs.
 * Not an environment variable: npm warns of an unknown config for an `npm_config_<package>_…` one,
 * and the shell npm runs install scripts in (dash on Debian) drops a `prebuild-install_…` one,
 * whose name is no shell variable's. Returns the file to remove after the install, or null when
 * one is there already (the user's own, left alone) or cannot be written.
 */
export function offerLocalPrebuilds(cache, folder = root) {
  const file = join(folder, PREBUILD_RC);
  if (existsSync(file)) return null;
  try {
    writeFileSync(file, `${JSON.stringify({ 'local-prebuilds': cache })}\n`, { flag: 'wx' });
    return file;
  } catch {
    return null;
  }
}

/**
 * Whether better-sqlite3's install compiled its binary: node-gyp writes build/config.gypi on every
 * OS when it configures; prebuild-install writes only the binary.
 */
export function wasCompiled(packageDir) {
  return existsSync(join(packageDir, 'build', 'config.gypi'));
}

/**
 * What an install did with better-sqlite3's binary, and so whether to keep it: a kept file offered
 * and not compiled over was taken; a compiled binary is kept (in place of a kept file the installer
 * refused: it loads a binary before it takes it, and a damaged one, or one a changed system library
 * no longer loads, fails it, and the install script compiles); one downloaded from the releases
 * is npm's cache's to keep, not ours.
 */
export function sqliteOutcome(kept, compiled) {
  if (compiled) return 'keep';
  return kept ? 'took the kept binary' : 'downloaded';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureInstall();
