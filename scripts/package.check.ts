/**
 * The packed tarball on a machine with only Node (docs/contract/console.md §1): `npm pack`, then
 * `npm install --omit=dev` of it into an empty folder (the registry is reachable; npm's cache is
 * preferred), then its own `cloud-queue-console` serves the full console UI, and `run` replays a
 * bundle exported from that console after a 503 storm: exit 0, and exit 1 with the changed
 * expectation named in JUnit once one expected transition is changed. Without better-sqlite3's
 * native module (an install script npm 12 did not run), it says so and what to run.
 *
 * better-sqlite3's binary comes from a loopback host as prebuild-install would download it
 * (scripts/sqlite-prebuild.mjs), not compiled a second time.
 *
 * `npm pack` builds first (prepack); when the build in out/ is newer than every source it is made
 * from (as right after `npm test`'s own build), the pack skips that second, identical build.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { text } from 'node:stream/consumers';
import { parse, type TestSuites } from 'junit2json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReproBundle } from '../main/engine/api/bundle-types.js';
import { PROJECT_ROOT, type ReadyLine } from '../main/testing/serve-process.js';
import { exportStormBundle } from '../main/testing/storm-bundle.js';
import { newestMtime } from './newest-mtime.mjs';
import { serveProjectPrebuild } from './sqlite-prebuild.mjs';

/** Kept for the whole file (the installed package serves from its folder), removed at the end. */
const made: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'cqc-pack-'));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
/** npm's own settings from a parent `npm test` stay out: the install is an outsider's. */
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
let installDir: string;
let bin: string;

/**
 * Runs npm to its end without blocking this process: the prebuilt binary's host answers from
 * this process's event loop while npm installs.
 */
async function npm(args: string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<string> {
  const child = spawn('npm', [...args, '--no-audit', '--no-fund', '--json=false'], {
    cwd,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    shell: process.platform === 'win32',
  });
  const ended = new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve(signal ? `was killed by ${signal}` : `exited ${code}`));
  });
  const [stdout, stderr, end] = await Promise.all([text(child.stdout), text(child.stderr), ended]);
  if (end !== 'exited 0') throw new Error(`npm ${args.join(' ')} ${end}:\n${stdout}\n${stderr}`);
  return stdout;
}

/** What the packed build (out/cli, out/renderer) is made from: any change here means building again. */
const BUILD_SOURCES = [
  'main',
  'renderer',
  'electron.vite.config.ts',
  'vite.cli.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];
const BUILD_OUTPUTS = ['out/cli/bin.js', 'out/renderer/index.html'];

function buildIsCurrent(): boolean {
  const outputs = BUILD_OUTPUTS.map((path) => join(PROJECT_ROOT, path));
  if (!outputs.every((path) => existsSync(path))) return false;
  const built = Math.min(...outputs.map((path) => statSync(path).mtimeMs));
  const skip = (name: string) => name === 'node_modules';
  return BUILD_SOURCES.every((path) => newestMtime(join(PROJECT_ROOT, path), { skip }) <= built);
}

beforeAll(async () => {
  const packDir = tempDir();
  await npm(['pack', '--pack-destination', packDir, ...(buildIsCurrent() ? ['--ignore-scripts'] : [])], PROJECT_ROOT);
  const [tarball] = readdirSync(packDir).filter((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${packDir}`);
  installDir = tempDir();
  writeFileSync(join(installDir, 'package.json'), JSON.stringify({ name: 'pack-check', private: true }));
  // better-sqlite3's binary as an outsider online gets it, not compiled again (scripts/sqlite-prebuild.mjs).
  const prebuilds = await serveProjectPrebuild(PROJECT_ROOT);
  try {
    await npm(['install', '--omit=dev', '--prefer-offline', join(packDir, tarball)], installDir, prebuilds?.env);
    if (prebuilds?.served === 0)
      console.warn('pack check: better-sqlite3 was compiled, not taken from the loopback host');
  } finally {
    await prebuilds?.close((await npm(['config', 'get', 'cache'], installDir)).trim());
  }
  bin = join(installDir, 'node_modules/.bin/cloud-queue-console');
});

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(bin, args, { cwd: installDir, env, encoding: 'utf8' });
}

describe('the installed package', () => {
  let served: { ready: ReadyLine; stop: () => Promise<number | null> };
  let bundle: ReproBundle;

  beforeAll(async () => {
    const child = spawn(bin, ['serve', '--port', '0', '--ephemeral'], {
      cwd: installDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const ready = await new Promise<ReadyLine>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as ReadyLine));
      void exited.then((code) => reject(new Error(`serve exited ${code}:\n${stderr}`)));
    });
    served = { ready, stop: () => (child.kill('SIGTERM'), exited) };
  });
  afterAll(() => served?.stop());

  it('has the command line under both names, with no TypeScript and no build tools', () => {
    const installed = readdirSync(join(installDir, 'node_modules'));
    for (const devOnly of ['typescript', 'tsx', 'vite', 'electron', 'vitest']) expect(installed).not.toContain(devOnly);
    expect(cli(['--help'])).toMatchObject({
      status: 0,
      stdout: expect.stringMatching(/^usage: cloud-queue-console <command>/),
    });
    const cqc = spawnSync(join(installDir, 'node_modules/.bin/cqc'), ['run', '--help'], {
      cwd: installDir,
      env,
      encoding: 'utf8',
    });
    expect(cqc.status).toBe(0);
  });

  it('serves the full console UI and the admin API', async () => {
    const { urls, adminToken } = served.ready;
    const page = await (await fetch(`${urls.console}/`)).text();
    expect(page).toContain(`<meta name="cqc-admin-token" content="${adminToken}"`);
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    const asset = new URL(script!, `${urls.console}/`);
    expect((await fetch(asset)).status, asset.href).toBe(200);
    const state = await fetch(`${urls.console}/admin/api/state`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(state.status, await state.clone().text()).toBe(200);
    bundle = await exportStormBundle(urls.console, adminToken);
    expect(await served.stop()).toBe(0);
  });

  it("runs that console's 503 storm bundle: exit 0; with one expected transition changed, exit 1 and JUnit names it", async () => {
    const dir = tempDir();
    const passing = join(dir, 'bundle.json');
    writeFileSync(passing, JSON.stringify(bundle));
    const ok = cli(['run', passing, '--junit', join(dir, 'ok.xml')]);
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^PASSED · /m);

    const changed = structuredClone(bundle);
    const expectStep = changed.scenario.steps.findLast((step) => step.type === 'expect');
    if (expectStep?.type !== 'expect' || !expectStep.transitions)
      throw new Error('the exported scenario has no expected transitions');
    expectStep.transitions[1] = 'load-answered-paused';
    const failing = join(dir, 'changed.json');
    writeFileSync(failing, JSON.stringify(changed));
    const failed = cli(['run', failing, '--junit', join(dir, 'failed.xml')]);
    expect(failed.status, failed.stdout + failed.stderr).toBe(1);
    const suite = ((await parse(readFileSync(join(dir, 'failed.xml'), 'utf8'))) as TestSuites).testsuite?.[0];
    const failedCase = suite?.testcase?.find((testCase) => testCase.failure);
    expect(failedCase?.name).toMatch(/expect player-kitchen: .*transitions .*load-answered-paused/);

    expect(cli(['run', join(dir, 'missing.json')]).status).toBe(2);
  });
});

describe('the installed package without better-sqlite3\u2019s native module', () => {
  it('says which install script did not run and what to do, not where the module was looked for', () => {
    // As npm 12 leaves it until the project approves the script (or --ignore-scripts always).
    const build = join(installDir, 'node_modules/better-sqlite3/build');
    const aside = `${build}.aside`;
    renameSync(build, aside);
    try {
      const started = cli(['serve', '--port', '0', '--ephemeral']);
      expect(started.status).toBe(1);
      expect(started.stdout).toBe('');
      expect(started.stderr).toMatch(
        /^cloud queue console serve: better-sqlite3, which keeps the console's data, has no native module built/,
      );
      expect(started.stderr).toContain('npm rebuild better-sqlite3');
      expect(started.stderr).not.toContain('Tried:');
    } finally {
      renameSync(aside, build);
    }
  });
});
