/**
 * What the desktop app needs before Electron starts (`npm start`, `npm run dev`):
 *   1. the Electron binary, which Electron downloads on first use (not at install: an install
 *      must succeed offline and behind proxies, where the download cannot);
 *   2. better-sqlite3 built for Electron's ABI in .electron-native/, a copy beside node_modules.
 *      node_modules keeps the build for Node, which `npm test` and `npm run serve` use, so the
 *      two never overwrite each other and work in either order.
 * `prepareElectron()` says whether both are there, and if not, why, in one line: `npm start`
 * then serves the console headless instead. Run as a script (`npm run dev`), a failure exits 1.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const stage = join(root, '.electron-native');
const stampFile = join(stage, 'stamp.json');
const binding = join(stage, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const electronDir = dirname(require.resolve('electron/package.json'));
/** A failed download is not tried again on every start; removing node_modules forgets it. */
const failureFile = join(root, 'node_modules/.cache/cloud-queue-console/electron-unavailable.json');
const RETRY_AFTER_MS = 24 * 3_600_000;
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

/** Where Electron's own launcher looks for the binary (electron/index.js). */
function binaryPresent() {
  const pathFile = join(electronDir, 'path.txt');
  return existsSync(pathFile) && existsSync(join(electronDir, 'dist', readFileSync(pathFile, 'utf8')));
}

/** Runs Electron's installer, keeping its output (a stack trace on failure) out of the terminal. */
function downloadBinary() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(electronDir, 'install.js')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill(), DOWNLOAD_TIMEOUT_MS);
    child.on('error', (error) => resolve(error.message));
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0 && binaryPresent()) return resolve(null);
      const firstLine = stderr
        .split('\n')
        .map((line) => line.trim())
        .find(Boolean);
      resolve(
        code === null
          ? `no answer within ${DOWNLOAD_TIMEOUT_MS / 60_000} minutes`
          : (firstLine ?? `the installer exited ${code}`),
      );
    });
  });
}

function recentFailure() {
  if (!existsSync(failureFile)) return null;
  try {
    const failure = JSON.parse(readFileSync(failureFile, 'utf8'));
    return Date.now() - failure.at < RETRY_AFTER_MS ? failure : null;
  } catch {
    return null;
  }
}

function rememberFailure(reason) {
  mkdirSync(dirname(failureFile), { recursive: true });
  writeFileSync(failureFile, JSON.stringify({ at: Date.now(), reason }));
}

async function buildNativeModule(electronVersion) {
  const sqliteVersion = require('better-sqlite3/package.json').version;
  const wanted = {
    electron: electronVersion,
    betterSqlite3: sqliteVersion,
    platform: process.platform,
    arch: process.arch,
  };
  if (
    existsSync(stampFile) &&
    existsSync(binding) &&
    JSON.stringify(JSON.parse(readFileSync(stampFile, 'utf8'))) === JSON.stringify(wanted)
  )
    return;
  process.stderr.write(
    `building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (${process.platform}-${process.arch})…\n`,
  );
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(join(stage, 'node_modules'), { recursive: true });
  writeFileSync(
    join(stage, 'package.json'),
    JSON.stringify(
      { name: 'electron-native', private: true, dependencies: { 'better-sqlite3': sqliteVersion } },
      null,
      2,
    ),
  );
  cpSync(dirname(require.resolve('better-sqlite3/package.json')), join(stage, 'node_modules/better-sqlite3'), {
    recursive: true,
    filter: (source) => !source.includes(`${join('better-sqlite3', 'build')}`),
  });
  const { rebuild } = await import('@electron/rebuild');
  await rebuild({
    buildPath: stage,
    electronVersion,
    arch: process.arch,
    onlyModules: ['better-sqlite3'],
    force: true,
  });
  if (!existsSync(binding)) throw new Error(`better-sqlite3 was rebuilt but ${binding} is missing`);
  writeFileSync(stampFile, JSON.stringify(wanted, null, 2));
}

/**
 * `{ ok: true }` when the desktop app can start, else `{ ok: false, reason }`. `retry`: try the
 * download even if it failed within the last day.
 */
export async function prepareElectron({ retry = false } = {}) {
  const electronVersion = require('electron/package.json').version;
  if (!binaryPresent()) {
    const failed = retry ? null : recentFailure();
    if (failed)
      return {
        ok: false,
        reason: `the Electron binary could not be downloaded (${failed.reason}; not retried until ${new Date(failed.at + RETRY_AFTER_MS).toLocaleString()})`,
      };
    process.stderr.write(`downloading the Electron ${electronVersion} binary (first start only)…\n`);
    const failure = await downloadBinary();
    if (failure) {
      rememberFailure(failure);
      return { ok: false, reason: `the Electron binary could not be downloaded (${failure})` };
    }
  }
  try {
    await buildNativeModule(electronVersion);
  } catch (error) {
    return {
      ok: false,
      reason: `better-sqlite3 could not be built for Electron (${String(error?.message ?? error).split('\n')[0]})`,
    };
  }
  return { ok: true };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const prepared = await prepareElectron({ retry: true });
  if (!prepared.ok) {
    process.stderr.write(
      `Electron is not available here: ${prepared.reason}. \`npm run serve\` runs the whole console in a browser.\n`,
    );
    process.exit(1);
  }
}
