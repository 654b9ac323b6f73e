/**
 * better-sqlite3's prebuilt binary from a loopback host, for the pack check's install. An outsider
 * online gets the binary from the package's release downloads (prebuild-install); this machine
 * cannot reach them, and compiling it from source took about 80 of the check's 150 s. The binary
 * served is the one this project's own install built (`npm ci` compiles it here, so that path runs
 * in every CI), packed as prebuild-install names and unpacks it; the variable that points
 * prebuild-install at a mirror is its own (`npm_config_<package>_binary_host`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, copyFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PrebuildHost {
  /** The environment that makes an install take the binary from here. */
  env: Record<string, string>;
  close(): Promise<void>;
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

  const server = createServer((request, response) => {
    if (request.url !== `/v${version}/${name}`) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': bytes.length }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: { npm_config_better_sqlite3_binary_host: `http://127.0.0.1:${port}` },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
