/**
 * better-sqlite3's prebuilt binary from a loopback host, for the pack check's install. An outsider
 * online gets the binary from the package's release downloads (prebuild-install); this machine
 * cannot reach them, and compiling it from source took about 80 of the check's 150 s. The binary
 * served is the one this project's own install built (`npm ci` compiles it here, so that path runs
 * in every CI), packed as prebuild-install names and unpacks it; the variable that points
 * prebuild-install at a mirror is its own (`npm_config_<package>_binary_host`).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, copyFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PrebuildHost {
  /** The environment that makes an install take the binary from here. */
  env: Record<string, string>;
  /** Downloads served: 0 after an install means it compiled the binary instead (a name it did not ask for). */
  readonly served: number;
  /**
   * Stops the host, and takes the download out of npm's cache, where prebuild-install keeps it
   * under its URL (whose port is new every run, so each run would leave a megabyte behind).
   */
  close(npmCache: string): Promise<void>;
}

/** Serves the project's better-sqlite3 binary; null when there is none to serve (the install compiles). */
export async function servePrebuiltSqlite(projectRoot: string): Promise<PrebuildHost | null> {
  const packageDir = join(projectRoot, 'node_modules', 'better-sqlite3');
  const binary = join(packageDir, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(binary)) return null;
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;

  const dir = mkdtempSync(join(tmpdir(), 'cqc-prebuild-'));
  mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
  copyFileSync(binary, join(dir, 'build', 'Release', 'better_sqlite3.node'));
  const tarball = join(dir, name);
  const packed = spawnSync('tar', ['-czf', tarball, '-C', dir, 'build'], { encoding: 'utf8' });
  if (packed.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const bytes = readFileSync(tarball);
  rmSync(dir, { recursive: true, force: true });

  let served = 0;
  const server = createServer((request, response) => {
    if (request.url !== `/v${version}/${name}`) return void response.writeHead(404).end();
    served++;
    response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bytes.length }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // prebuild-install's name for a download in its cache (util.js: cachedPrebuild).
  const url = `${host}/v${version}/${name}`;
  const cached = `${createHash('sha512').update(url).digest('hex').slice(0, 6)}-${name.replace(/[^a-zA-Z0-9.]+/g, '-')}`;
  return {
    env: { npm_config_better_sqlite3_binary_host: host },
    get served() {
      return served;
    },
    async close(npmCache) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(join(npmCache, '_prebuilds', cached), { force: true });
    },
  };
}
