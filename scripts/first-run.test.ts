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
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../main/engine/testing/temp-dirs.js';

const root = join(import.meta.dirname, '..');
const tempDir = tempDirs('cqc-first-run-');

/** The npm commands of the README's script table, as a user types them. */
function readmeCommands(): string[][] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  return [...readme.matchAll(/^\| `npm (start|test|run [a-z:]+)`/gm)].map((match) => match[1]!.split(' '));
}

/** A clone with nothing installed whose `npm ci` fails before it fetches anything. */
function freshClone(): string {
  const clone = join(tempDir(), 'clone');
  cpSync(join(root, 'scripts'), join(clone, 'scripts'), {
    recursive: true,
    filter: (path) => !path.endsWith('.ts'),
  });
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
 * A clone whose one dependency, a dev one, is a folder beside it: the real `npm ci` installs it
 * offline, and the install on first run can be seen to have happened, or not.
 */
function cloneWithLocalDevDependency(): string {
  const clone = join(tempDir(), 'clone');
  cpSync(join(root, 'scripts'), join(clone, 'scripts'), { recursive: true, filter: (path) => !path.endsWith('.ts') });
  mkdirSync(join(clone, 'tool'));
  writeFileSync(join(clone, 'tool', 'package.json'), JSON.stringify({ name: 'tool', version: '1.0.0' }));
  const manifest = { name: 'clone', version: '1.0.0', type: 'module', devDependencies: { tool: 'file:tool' } };
  writeFileSync(join(clone, 'package.json'), JSON.stringify(manifest, null, 2));
  const lock = spawnSync('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund'], {
    cwd: clone,
    env: userEnv(),
    encoding: 'utf8',
  });
  expect(lock.status, lock.stderr).toBe(0);
  return clone;
}

describe('the install on first run is a whole one, whatever npm settings came with the command', () => {
  it.each([
    ['`npm pack --dry-run` (its prepack builds)', { npm_config_dry_run: 'true' }],
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
    ['an omit=dev setting', { npm_config_omit: 'dev' }],
  ])('%s', (_, settings) => {
    const clone = cloneWithLocalDevDependency();
    const result = spawnSync(process.execPath, ['scripts/ensure-install.mjs'], {
      cwd: clone,
      env: { ...userEnv(), ...settings },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(join(clone, 'node_modules', 'tool', 'package.json'))).toBe(true);
    expect(existsSync(join(clone, 'node_modules', '.package-lock.json'))).toBe(true);
  });
});
