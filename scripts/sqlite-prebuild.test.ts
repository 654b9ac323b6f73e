/**
 * better-sqlite3's binary kept between installs (scripts/sqlite-prebuild.mjs): where it is kept,
 * that a kept file is the release file its installer looks for, and that the installer itself
 * (prebuild-install, run as npm runs it) takes it from the cache with no network and no compiler.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../main/engine/testing/temp-dirs.js';
import { offerLocalPrebuilds, PREBUILD_RC, sqliteOutcome, wasCompiled } from './ensure-install.mjs';
import { BINARY_PATH, binaryCache, cachedPrebuild, keepPrebuild, prebuildName } from './sqlite-prebuild.mjs';

const tempDir = tempDirs('cqc-sqlite-prebuild-');
const ROOT = join(import.meta.dirname, '..');
const SQLITE = join(ROOT, 'node_modules', 'better-sqlite3');
const INSTALLER = join(ROOT, 'node_modules', 'prebuild-install', 'bin.js');

/** A package folder as an install leaves it: better-sqlite3's package.json and a built binary of `bytes`. */
function installedPackage(bytes: Buffer): string {
  const dir = tempDir();
  copyFileSync(join(SQLITE, 'package.json'), join(dir, 'package.json'));
  mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
  writeFileSync(join(dir, BINARY_PATH), bytes);
  return dir;
}

const version = (): string =>
  (JSON.parse(readFileSync(join(SQLITE, 'package.json'), 'utf8')) as { version: string }).version;

describe('the cache folder', () => {
  it('is the one named, none when switched off, else under an absolute XDG_CACHE_HOME or ~/.cache', () => {
    expect(binaryCache({ CQC_PREBUILD_CACHE: '/somewhere' })).toBe('/somewhere');
    expect(binaryCache({ CQC_PREBUILD_CACHE: 'off', XDG_CACHE_HOME: '/x' })).toBeNull();
    expect(binaryCache({ XDG_CACHE_HOME: '/x' })).toBe('/x/cloud-queue-console/prebuilds');
    const home = join(homedir(), '.cache', 'cloud-queue-console', 'prebuilds');
    expect(binaryCache({})).toBe(home);
    // The XDG spec: a relative path is to be ignored.
    expect(binaryCache({ XDG_CACHE_HOME: 'relative' })).toBe(home);
  });

  it("names a release file as the installer does, a Linux C library other than glibc's in it", () => {
    const nameWith = (env: Record<string, string>) =>
      spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { prebuildName } from ${JSON.stringify(join(import.meta.dirname, 'sqlite-prebuild.mjs'))}; process.stdout.write(prebuildName('1.2.3'))`,
        ],
        { encoding: 'utf8', env: { ...process.env, ...env } },
      ).stdout;
    const os = process.platform;
    expect(nameWith({ LIBC: 'glibc' })).toBe(
      `better-sqlite3-v1.2.3-node-v${process.versions.modules}-${os}-${process.arch}.tar.gz`,
    );
    expect(nameWith({ LIBC: 'musl' })).toBe(
      `better-sqlite3-v1.2.3-node-v${process.versions.modules}-${os}${os === 'linux' ? 'musl' : ''}-${process.arch}.tar.gz`,
    );
  });
});

describe('keeping a binary', () => {
  it('writes the release file of this version and ABI, whole, with the binary where the release has it', () => {
    const bytes = Buffer.from('not really a shared object, but bytes to find again');
    const cache = join(tempDir(), 'deeper', 'cache');
    expect(cachedPrebuild(cache, version())).toBeNull();

    const kept = keepPrebuild(cache, installedPackage(bytes));
    expect(kept).toBe(join(cache, prebuildName(version())));
    expect(prebuildName(version())).toBe(
      `better-sqlite3-v${version()}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`,
    );
    expect(cachedPrebuild(cache, version())).toBe(kept);
    expect(cachedPrebuild(cache, '0.0.1')).toBeNull();
    // Written aside and renamed: nothing half-written is left for a reader.
    expect(readdirSync(cache)).toEqual([prebuildName(version())]);

    const out = tempDir();
    expect(spawnSync('tar', ['-xzf', kept!, '-C', out]).status).toBe(0);
    expect(readFileSync(join(out, BINARY_PATH))).toEqual(bytes);
  });

  it('keeps nothing without a cache or without a built binary, and never throws', () => {
    expect(keepPrebuild(null, installedPackage(Buffer.from('x')))).toBeNull();
    const unbuilt = tempDir();
    copyFileSync(join(SQLITE, 'package.json'), join(unbuilt, 'package.json'));
    expect(keepPrebuild(tempDir(), unbuilt)).toBeNull();
    // A cache path under a file cannot be made: the install goes on without it.
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    expect(keepPrebuild(join(file, 'cache'), installedPackage(Buffer.from('x')))).toBeNull();
  });
});

/**
 * better-sqlite3's install script as npm runs it (through `sh -c`, in the package's folder under a
 * project's node_modules), in a project the install on first run pointed at `cache`
 * (`offerLocalPrebuilds`), with a home of its own and no network.
 */
function installFrom(cache: string) {
  const project = tempDir();
  const offered = offerLocalPrebuilds(cache, project);
  expect(offered).toBe(join(project, PREBUILD_RC));
  const fresh = join(project, 'node_modules', 'better-sqlite3');
  mkdirSync(fresh, { recursive: true });
  copyFileSync(join(SQLITE, 'package.json'), join(fresh, 'package.json'));
  const run = spawnSync('sh', ['-c', `"${process.execPath}" "${INSTALLER}"`], {
    cwd: fresh,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: tempDir(),
      npm_config_cache: tempDir(),
      npm_config_loglevel: 'info',
      // Any download fails at once rather than waiting on a network.
      npm_config_better_sqlite3_binary_host: 'http://127.0.0.1:9',
    },
  });
  return { ...run, binary: join(fresh, BINARY_PATH) };
}

describe('the next install', () => {
  it("takes the kept binary through the installer's own local prebuilds, with no network and no compiler", () => {
    // The installer loads what it unpacks: a real binary, the one this project's install built.
    const bytes = readFileSync(join(SQLITE, BINARY_PATH));
    const cache = tempDir();
    keepPrebuild(cache, installedPackage(bytes));
    const run = installFrom(cache);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/found local prebuild/);
    expect(readFileSync(run.binary).equals(bytes)).toBe(true);
    // Taken, not compiled: nothing to keep again.
    expect(wasCompiled(join(run.binary, '..', '..', '..'))).toBe(false);
  });

  it('refuses a kept file that does not load, so that npm compiles instead', () => {
    const cache = tempDir();
    keepPrebuild(cache, installedPackage(Buffer.from('a damaged binary')));
    // better-sqlite3's install script is `prebuild-install || node-gyp rebuild --release`.
    expect(installFrom(cache).status).not.toBe(0);
  });
});

describe('what the install keeps', () => {
  it('keeps a compiled binary, in place of a kept one the installer refused, and never a download', () => {
    expect(sqliteOutcome(null, true)).toBe('keep');
    expect(sqliteOutcome('/cache/file.tar.gz', true)).toBe('keep');
    expect(sqliteOutcome('/cache/file.tar.gz', false)).toBe('took the kept binary');
    expect(sqliteOutcome(null, false)).toBe('downloaded');
  });

  it("tells a compile by node-gyp's config.gypi, which it writes on every OS", () => {
    const dir = installedPackage(Buffer.from('x'));
    expect(wasCompiled(dir)).toBe(false);
    writeFileSync(join(dir, 'build', 'config.gypi'), '{}');
    expect(wasCompiled(dir)).toBe(true);
  });
});

describe('pointing the installer at the cache', () => {
  it("writes its settings file for the install, and leaves a user's own alone", () => {
    const project = tempDir();
    const file = offerLocalPrebuilds('/the/cache', project);
    expect(JSON.parse(readFileSync(file!, 'utf8'))).toEqual({ 'local-prebuilds': '/the/cache' });
    // One there already (the user's, or this install's): not written over, not to be removed.
    expect(offerLocalPrebuilds('/another', project)).toBeNull();
    expect(JSON.parse(readFileSync(file!, 'utf8'))).toEqual({ 'local-prebuilds': '/the/cache' });
  });
});
