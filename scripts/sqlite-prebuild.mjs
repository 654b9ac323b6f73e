/**
 * better-sqlite3's binary, which its installer (prebuild-install) downloads from the package's
 * releases. Offline (this machine, users behind a proxy) it compiles SQLite from source instead:
 * about 95 s of one core, the longest part of a fresh install. Two callers hand it a binary this
 * machine already built:
 *
 * - the install on first run (ensure-install.mjs) keeps the binary an install compiled in the
 *   user's cache folder (`binaryCache`), and the next install takes it from there as a folder of
 *   local prebuilds (the installer's own `npm_config_<package>_local_prebuilds`): a second clone,
 *   or the same one after its lockfile changed, does not compile again;
 * - the pack check (package.check.ts) serves the project's own binary on loopback, so the packed
 *   tarball's install downloads it as an outsider online would (`npm_config_<package>_binary_host`).
 *
 * The release file is named and laid out as the package's releases are. Plain Node (no
 * TypeScript): the install on first run runs before anything is installed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where an install keeps what it built, relative to the package's folder. */
export const BINARY_PATH = join('build', 'Release', 'better_sqlite3.node');

/** The release file prebuild-install asks for: the package's version and this Node's ABI, OS and CPU. */
export function prebuildName(version) {
  return `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
}

/** Packs `binary` as a release's tarball at `tarball` (build/Release/better_sqlite3.node inside); false when tar failed. */
export function packPrebuild(binary, tarball) {
  const dir = mkdtempSync(join(tmpdir(), 'cqc-prebuild-'));
  try {
    mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
    copyFileSync(binary, join(dir, BINARY_PATH));
    return spawnSync('tar', ['-czf', tarball, '-C', dir, 'build']).status === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Serves `tarball` (a release file of better-sqlite3 `version`) on loopback until closed.
 * `env` makes an install take it from here; `served` counts downloads (0 after an install: it
 * compiled instead); `close(npmCache)` stops the host and takes the download out of npm's cache
 * when one is named, where prebuild-install keeps it under its URL (whose port is new every run,
 * so each run would leave a megabyte behind).
 */
async function servePrebuild(tarball, version) {
  const name = prebuildName(version);
  const bytes = readFileSync(tarball);
  let served = 0;
  const server = createServer((request, response) => {
    if (request.url !== `/v${version}/${name}`) return void response.writeHead(404).end();
    served++;
    response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bytes.length }).end(bytes);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `http://127.0.0.1:${server.address().port}`;
  // prebuild-install's name for a download in its cache (util.js: cachedPrebuild).
  const url = `${host}/v${version}/${name}`;
  const cached = `${createHash('sha512').update(url).digest('hex').slice(0, 6)}-${name.replace(/[^a-zA-Z0-9.]+/g, '-')}`;
  return {
    env: { npm_config_better_sqlite3_binary_host: host },
    get served() {
      return served;
    },
    async close(npmCache) {
      await new Promise((resolve) => server.close(() => resolve()));
      if (npmCache) rmSync(join(npmCache, '_prebuilds', cached), { force: true });
    },
  };
}

/** Serves the binary the project's own install built (the pack check); null when there is none. */
export async function serveProjectPrebuild(projectRoot) {
  const packageDir = join(projectRoot, 'node_modules', 'better-sqlite3');
  const binary = join(packageDir, BINARY_PATH);
  if (!existsSync(binary)) return null;
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), 'cqc-prebuild-'));
  try {
    const tarball = join(dir, prebuildName(version));
    return packPrebuild(binary, tarball) ? await servePrebuild(tarball, version) : null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The user's cache of binaries this machine compiled, one release file per version and ABI:
 * `$XDG_CACHE_HOME/cloud-queue-console/prebuilds` (`~/.cache/…` without it), or the folder
 * `CQC_PREBUILD_CACHE` names. `CQC_PREBUILD_CACHE=off` keeps nothing and serves nothing.
 */
export function binaryCache(env = process.env) {
  if (env.CQC_PREBUILD_CACHE === 'off') return null;
  if (env.CQC_PREBUILD_CACHE) return env.CQC_PREBUILD_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cloud-queue-console', 'prebuilds');
}

/** The release file in `cache` for better-sqlite3 `version` on this Node, or null when there is none. */
export function cachedPrebuild(cache, version) {
  const file = cache && join(cache, prebuildName(version));
  return file && existsSync(file) ? file : null;
}

/**
 * Keeps the binary an install built in `packageDir` (node_modules/better-sqlite3) in `cache`,
 * written aside and renamed, so a reader never sees half a file. Returns the file kept, or null
 * (no cache, no binary, or it could not be written: an install never fails for its cache).
 */
export function keepPrebuild(cache, packageDir) {
  const binary = join(packageDir, BINARY_PATH);
  if (!cache || !existsSync(binary)) return null;
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const file = join(cache, prebuildName(version));
  try {
    mkdirSync(cache, { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    if (!packPrebuild(binary, partial)) {
      rmSync(partial, { force: true });
      return null;
    }
    renameSync(partial, file);
    return file;
  } catch {
    return null;
  }
}
