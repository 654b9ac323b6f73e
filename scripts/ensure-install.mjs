/**
 * Runs first in `npm start` and `npm test`, with nothing but Node: on a fresh clone (no
 * node_modules) or after package-lock.json changed since the last install, it installs the
 * dependencies with `npm ci`, so each command works as the README writes it. Electron's binary is
 * not part of this: Electron fetches it on first use, and `npm start` copes when it cannot.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lockfile = join(root, 'package-lock.json');
// npm writes this hidden lockfile at the end of every install.
const installed = join(root, 'node_modules/.package-lock.json');

export function installIsCurrent() {
  return existsSync(installed) && statSync(installed).mtimeMs >= statSync(lockfile).mtimeMs;
}

export function ensureInstall() {
  if (installIsCurrent()) return;
  process.stderr.write(
    existsSync(installed)
      ? 'package-lock.json changed: installing dependencies (npm ci)…\n'
      : 'first run: installing dependencies (npm ci; the README gives the times measured)…\n',
  );
  // Under npm, npm_execpath is npm's own entry: the same npm, on every OS, without a shell.
  const npm = process.env.npm_execpath;
  const args = ['ci', '--no-audit', '--no-fund', '--json=false'];
  const result = npm
    ? spawnSync(process.execPath, [npm, ...args], { cwd: root, stdio: ['ignore', process.stderr, process.stderr] })
    : spawnSync('npm', args, {
        cwd: root,
        stdio: ['ignore', process.stderr, process.stderr],
        shell: process.platform === 'win32',
      });
  if (result.status !== 0) {
    process.stderr.write(
      `installing the dependencies failed (npm ci exited ${result.status ?? result.signal}); see npm's messages above\n`,
    );
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureInstall();
