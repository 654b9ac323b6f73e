/**
 * better-sqlite3's binary, which its installer (prebuild-install) downloads from the package's
 * releases. Offline (this machine, users behind a proxy) it compiles SQLite from source instead:
 * about 95 s of one core, the longest part of a fresh install. Two callers hand it a binary this
 * machine already built:
 *
 * - the install on first run (ensure-install.mjs) keeps the binary an install compiled in the
 *   user's cache folder (`binaryCache`), and the next install takes it from there as a folder of
 *   local prebuilds (the installer's own `local-prebuilds` setting, in a `.prebuild-installrc` for
 *   the install's length): a second clone, or the same one after its lockfile changed, does not
 *   compile again;
 * - the pack check (package.check.ts) serves the project's own binary on loopback, so the packed
 *   tarball's install downloads it as an outsider online would (`npm_config_<package>_binary_host`).
 *
 * The release file is named and laid out as the package's releases are. Plain Node (no
 * TypeScript): the install on first run runs before anything is installed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chosenCacheFolder, writeAside } from './user-cache.mjs';

/** Where an install keeps what it built, relative to the package's folder. */
export const BINARY_PATH = join('build', 'Release', 'better_sqlite3.node');

/**
 * The C library prebuild-install names a Linux release by: empty for glibc, `musl` for Alpine's
 * (its rc.js: LIBC or npm_config_libc, else detect-libc). Node's report says glibc's version
 * where glibc runs the process.
 */
function libc(env = process.env) {
  const named = env.LIBC || env.npm_config_libc;
  if (process.platform !== 'linux') return '';
  if (named) return named === 'glibc' ? '' : named;
  return process.report?.getReport().header.glibcVersionRuntime ? '' : 'musl';
}

/**
 * The release file prebuild-install asks for: the package's version, Node's ABI, the OS (with its
 * C library on Linux) and the CPU. The ABI is this Node's; an install script run by another Node
 * on PATH asks for another file, and compiles.
 */
export function prebuildName(version) {
  return `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}${libc()}-${process.arch}.tar.gz`;
}

/** Packs `binary` as a release's tarball at `tarball` (build/Release/better_sqlite3.node inside); false when tar failed. */
export function packPrebuild(binary, tarball) {
  const dir = mkdtempSync(join(tmpdir(), 'cqc-prebuild-'));
  try {
    mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
    copyFileSync(binary, join(dir, BINARY_PATH));
    // macOS's tar would add AppleDouble entries for a copy's extended attributes.
    const env = { ...process.env, COPYFILE_DISABLE: '1' };
    return spawnSync('tar', ['-czf', tarball, '-C', dir, 'build'], { env }).status === 0;
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
 * `$XDG_CACHE_HOME/cloud-queue-console/prebuilds` (an absolute XDG_CACHE_HOME, as its spec asks),
 * else `~/.cache/…` on every OS, or the folder `CQC_PREBUILD_CACHE` names.
 * `CQC_PREBUILD_CACHE=off` keeps nothing and offers nothing. Nothing prunes it: a file is about
 * 1 MB, one per better-sqlite3 version and Node ABI; removing the folder is always safe.
 */
export function binaryCache(env = process.env) {
  return chosenCacheFolder('CQC_PREBUILD_CACHE', 'prebuilds', env);
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
  try {
    const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
    const file = join(cache, prebuildName(version));
    return writeAside(file, (partial) => packPrebuild(binary, partial)) ? file : null;
  } catch {
    return null;
  }
}
