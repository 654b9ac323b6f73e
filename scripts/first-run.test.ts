/**
 * Every command the README's script table lists installs the dependencies first on a fresh clone,
 * as `npm start` and `npm test` always did, rather than failing on a tool or a module that is not
 * there yet (`sh: electron-vite: not found`, `Cannot find package 'tsx'`).
 *
 * The clone here is the project's scripts, benches and package.json with no node_modules, and a
 * lockfile out of step with package.json, so the real `npm ci` each command starts refuses the pair
 * (npm kept offline: without that it asks the registry about the dependency first), and the
 * command must stop there and say so. What is not tested here: a lockfile newer than the install,
 * and the commands after an install that succeeds (`npm test` itself runs after one).
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../main/engine/testing/temp-dirs.js';
import { ASIDE } from './earlier-install.mjs';

const root = join(import.meta.dirname, '..');
const tempDir = tempDirs('cqc-first-run-');

/** The npm commands of the README's script table, as a user types them. */
function readmeCommands(): string[][] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  return [...readme.matchAll(/^\| `npm (start|test|run [a-z:]+)`/gm)].map((match) => match[1]!.split(' '));
}

/** A new clone's folder holding the project's scripts (not their tests), in `folder` (a test's own by default). */
function cloneWithScripts(folder = tempDir()): string {
  const clone = join(folder, 'clone');
  cpSync(join(root, 'scripts'), join(clone, 'scripts'), {
    recursive: true,
    filter: (path) => !path.endsWith('.ts'),
  });
  return clone;
}

/** A clone with nothing installed whose `npm ci` fails before it fetches anything. */
function freshClone(): string {
  const clone = cloneWithScripts();
  // Without an install first, the benches' runner would start each through tsx, which is not there.
  cpSync(join(root, 'bench'), join(clone, 'bench'), { recursive: true });
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  // A dependency the lockfile does not hold: `npm ci` refuses the pair before it goes online.
  const manifest = {
    name: pkg.name,
    version: pkg.version,
    type: pkg.type,
    scripts: pkg.scripts,
    dependencies: { tsx: '4.0.0' },
  };
  writeFileSync(join(clone, 'package.json'), JSON.stringify(manifest, null, 2));
  const lock = { name: pkg.name, version: pkg.version, lockfileVersion: 3, requires: true, packages: { '': {} } };
  writeFileSync(join(clone, 'package-lock.json'), JSON.stringify(lock, null, 2));
  return clone;
}

/**
 * The environment of a user's shell: none of the outer npm's variables, none of this project's
 * tools on PATH (so a tool used before the install is not found), no cache of ours touched, and npm
 * offline (each `npm ci` refuses the lockfile without asking the registry).
 */
function userEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.includes('node_modules'))
    .join(delimiter);
  return {
    ...env,
    PATH: path,
    npm_config_offline: 'true',
    CQC_PREBUILD_CACHE: 'off',
    CQC_CHECK_CACHE: 'off',
    NO_COLOR: '1',
  };
}

describe('a fresh clone', () => {
  const commands = readmeCommands();

  it('lists the commands the README names', () => {
    expect(commands.map((command) => command.join(' '))).toEqual(
      expect.arrayContaining(['start', 'test', 'run serve', 'run build', 'run typecheck', 'run lint', 'run bench']),
    );
  });

  it.each(commands.map((command) => [command.join(' '), command] as const))(
    '`npm %s` installs before anything else, and stops when the install fails',
    (_, command) => {
      const clone = freshClone();
      const result = spawnSync('npm', command, { cwd: clone, env: userEnv(), encoding: 'utf8', timeout: 60_000 });
      const output = `${result.stdout}${result.stderr}`;
      expect(output).toContain('first run: installing dependencies (npm ci');
      expect(output).toContain('installing the dependencies failed (npm ci exited 1)');
      expect(output).not.toMatch(/ERR_MODULE_NOT_FOUND|not found|ENOENT/);
      expect(result.status).toBe(1);
      // The turn is given back however the install ended.
      expect(existsSync(join(clone, '.install-turn'))).toBe(false);
    },
  );
});

/** An npm whose `ci` takes a while, notes when it starts and ends, and leaves a current install. */
const SLOW_NPM = `
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
appendFileSync(process.env.NPM_LOG, 'start\\n');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
mkdirSync('node_modules', { recursive: true });
writeFileSync('node_modules/.package-lock.json', '{}');
appendFileSync(process.env.NPM_LOG, 'end\\n');
`;

/** Runs the install on first run in `clone` with the slow npm; its exit status and what it said. */
function installIn(clone: string): Promise<{ status: number | null; said: string }> {
  const npm = join(clone, 'slow-npm.mjs');
  writeFileSync(npm, SLOW_NPM);
  const env = { ...userEnv(), npm_execpath: npm, NPM_LOG: join(clone, 'npm.log') };
  const child = spawn(process.execPath, ['scripts/ensure-install.mjs'], { cwd: clone, env });
  let said = '';
  child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, said })));
}

const npmRuns = (clone: string) => readFileSync(join(clone, 'npm.log'), 'utf8').split('\n').filter(Boolean);

describe('two commands started at once on a fresh clone', () => {
  it('install once: the second waits for the first and finds the install done', async () => {
    const clone = freshClone();
    const first = installIn(clone);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const results = await Promise.all([first, installIn(clone)]);
    expect(npmRuns(clone)).toEqual(['start', 'end']);
    expect(results.map((result) => result.status)).toEqual([0, 0]);
    expect(results[1]!.said).toContain('another command is installing the dependencies here; waiting for it');
    expect(existsSync(join(clone, '.install-turn'))).toBe(false);
  });

  it('take the turn a killed install left behind', async () => {
    const clone = freshClone();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    mkdirSync(join(clone, '.install-turn'));
    writeFileSync(join(clone, '.install-turn', 'pid'), String(gone));
    const result = await installIn(clone);
    expect(result.status).toBe(0);
    expect(result.said).not.toContain('waiting');
    expect(npmRuns(clone)).toEqual(['start', 'end']);
    expect(existsSync(join(clone, '.install-turn'))).toBe(false);
  });
});

/**
 * A clone whose one dependency, a dev one, is a tarball beside it: the real `npm ci` installs it
 * offline (a copy, as from the registry), and the install can be seen to have happened, or not.
 * The tarball and the lockfile are made once (an npm pack and an npm install each), then copied.
 */
let devDependencyClone: string | undefined;
const kept = mkdtempSync(join(tmpdir(), 'cqc-first-run-kept-'));
afterAll(() => rmSync(kept, { recursive: true, force: true }));

function cloneWithLocalDevDependency(): string {
  devDependencyClone ??= madeWithLocalDevDependency();
  const clone = join(tempDir(), 'clone');
  cpSync(devDependencyClone, clone, { recursive: true });
  return clone;
}

function madeWithLocalDevDependency(): string {
  const clone = cloneWithScripts(kept);
  const tool = join(clone, 'tool');
  mkdirSync(tool);
  writeFileSync(join(tool, 'package.json'), JSON.stringify({ name: 'tool', version: '1.0.0' }));
  npmIn(tool, ['pack', '--pack-destination', clone]);
  rmSync(tool, { recursive: true });
  const manifest = {
    name: 'clone',
    version: '1.0.0',
    type: 'module',
    devDependencies: { tool: 'file:tool-1.0.0.tgz' },
  };
  writeFileSync(join(clone, 'package.json'), JSON.stringify(manifest, null, 2));
  npmIn(clone, ['install', '--package-lock-only']);
  return clone;
}

function npmIn(cwd: string, args: string[]): void {
  const result = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--json=false'], {
    cwd,
    env: userEnv(),
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
}

/** The install on first run in `clone`, as every command starts it: its exit status and what it said. */
function ensureInstallIn(clone: string, settings: NodeJS.ProcessEnv = {}): { status: number | null; said: string } {
  const result = spawnSync(process.execPath, ['scripts/ensure-install.mjs'], {
    cwd: clone,
    env: { ...userEnv(), ...settings },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, said: result.stderr };
}

const toolInstalled = (clone: string) => existsSync(join(clone, 'node_modules', 'tool', 'package.json'));

describe('the install on first run is a whole one, whatever npm settings came with the command', () => {
  it.each([
    ['`npm pack --dry-run` (its prepack builds)', { npm_config_dry_run: 'true' }],
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
    ['an omit=dev setting', { npm_config_omit: 'dev' }],
  ])('%s', (_, settings) => {
    const clone = cloneWithLocalDevDependency();
    const result = ensureInstallIn(clone, settings);
    expect(result.status, result.said).toBe(0);
    expect(toolInstalled(clone)).toBe(true);
    expect(existsSync(join(clone, 'node_modules', '.package-lock.json'))).toBe(true);
  });
});

/** package-lock.json changed to want a package npm cannot fetch offline: `npm ci` fails after emptying node_modules. */
function wantUnreachablePackage(clone: string): void {
  const manifest = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8'));
  manifest.devDependencies['cqc-nowhere'] = '1.0.0';
  writeFileSync(join(clone, 'package.json'), JSON.stringify(manifest, null, 2));
  const lock = JSON.parse(readFileSync(join(clone, 'package-lock.json'), 'utf8'));
  lock.packages[''].devDependencies['cqc-nowhere'] = '1.0.0';
  lock.packages['node_modules/cqc-nowhere'] = {
    version: '1.0.0',
    resolved: 'https://registry.npmjs.org/cqc-nowhere/-/cqc-nowhere-1.0.0.tgz',
    integrity: `sha512-${'A'.repeat(86)}==`,
    dev: true,
  };
  writeFileSync(join(clone, 'package-lock.json'), JSON.stringify(lock, null, 2));
  lockfileChanged(clone);
}

/** package-lock.json newer than the install, whatever the file system's clock resolution (and newer than the last such). */
function lockfileChanged(clone: string): void {
  const later = new Date(Math.max(Date.now(), statSync(join(clone, 'package-lock.json')).mtimeMs) + 2_000);
  utimesSync(join(clone, 'package-lock.json'), later, later);
}

describe('an install that fails after a lockfile change', () => {
  const KEPT = 'going on with the install from before package-lock.json changed';

  it('puts the install that worked back, goes on with it, and tries again only for another lockfile', () => {
    const clone = cloneWithLocalDevDependency();
    expect(ensureInstallIn(clone).status).toBe(0);
    wantUnreachablePackage(clone);

    const failed = ensureInstallIn(clone);
    expect(failed.said).toContain('package-lock.json changed: installing dependencies');
    expect(failed.said).toContain('installing the dependencies failed');
    expect(failed.said).toContain(KEPT);
    expect(failed.status).toBe(0);
    expect(toolInstalled(clone)).toBe(true);
    expect(existsSync(join(clone, ASIDE))).toBe(false);

    // The next command does not wait on the network again for the same lockfile.
    const next = ensureInstallIn(clone);
    expect(next.status).toBe(0);
    expect(next.said).toContain(KEPT);
    expect(next.said).not.toContain('installing');

    // Another lockfile (the change taken back) is installed.
    const manifest = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8'));
    delete manifest.devDependencies['cqc-nowhere'];
    writeFileSync(join(clone, 'package.json'), JSON.stringify(manifest, null, 2));
    npmIn(clone, ['install', '--package-lock-only']);
    lockfileChanged(clone);
    const again = ensureInstallIn(clone);
    expect(again.status, again.said).toBe(0);
    expect(again.said).not.toContain(KEPT);
    expect(toolInstalled(clone)).toBe(true);
  });

  it('keeps the install a killed install had set aside, not the half-done one', () => {
    const clone = cloneWithLocalDevDependency();
    expect(ensureInstallIn(clone).status).toBe(0);
    wantUnreachablePackage(clone);
    // As a command killed in the middle of its npm ci leaves it.
    renameSync(join(clone, 'node_modules'), join(clone, ASIDE));
    mkdirSync(join(clone, 'node_modules', 'half-done'), { recursive: true });

    const result = ensureInstallIn(clone);
    expect(result.status).toBe(0);
    expect(result.said).toContain(KEPT);
    expect(toolInstalled(clone)).toBe(true);
    expect(existsSync(join(clone, 'node_modules', 'half-done'))).toBe(false);
    expect(existsSync(join(clone, ASIDE))).toBe(false);
  });

  it('lets a command that waited for the failed install go on with what it put back, not try again', async () => {
    const clone = cloneWithLocalDevDependency();
    expect(ensureInstallIn(clone).status).toBe(0);
    wantUnreachablePackage(clone);
    const started = (settings: NodeJS.ProcessEnv = {}) => {
      const child = spawn(process.execPath, ['scripts/ensure-install.mjs'], {
        cwd: clone,
        env: { ...userEnv(), ...settings },
      });
      let said = '';
      child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
      const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
      return { said: () => said, ended };
    };
    const first = started();
    // The second starts once the first holds the turn and its npm ci runs.
    while (!first.said().includes('installing dependencies')) await new Promise((resolve) => setTimeout(resolve, 20));
    const second = started();
    const statuses = await Promise.all([first.ended, second.ended]);
    expect(statuses).toEqual([0, 0]);
    expect(first.said()).toContain('installing the dependencies failed');
    expect(second.said()).toContain('waiting for it');
    expect(second.said()).toContain(KEPT);
    expect(second.said()).not.toContain('installing dependencies');
    expect(toolInstalled(clone)).toBe(true);
  });

  it('leaves a fresh clone with nothing to keep failing as before', () => {
    const clone = cloneWithLocalDevDependency();
    wantUnreachablePackage(clone);
    const result = ensureInstallIn(clone);
    expect(result.status).toBe(1);
    expect(result.said).not.toContain(KEPT);
  });
});
