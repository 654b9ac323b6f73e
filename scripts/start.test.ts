/**
 * `npm start` where the desktop app cannot open (CI, offline, no display): one plain line says
 * why, and the same console is served headless at the URL it prints. No stack trace on the way.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/testing/serve-process.js';

interface Started {
  firstLine: string;
  stderr: () => string;
  stop: () => Promise<number | null>;
}

function start(args: string[], env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(process.execPath, ['scripts/start.mjs', ...args], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no URL in time:\n${stderr}`)), 60_000);
    createInterface({ input: child.stdout }).once('line', (firstLine) => {
      clearTimeout(timer);
      resolve({ firstLine, stderr: () => stderr, stop: () => (child.kill('SIGTERM'), exited) });
    });
    void exited.then((code) => reject(new Error(`npm start exited ${code} before it served:\n${stderr}`)));
  });
}

/** The environment of a machine without a display; npm's own settings left out. */
function headlessEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^npm_config_/i.test(name) && name !== 'DISPLAY' && name !== 'WAYLAND_DISPLAY',
    ),
  );
  return { ...env, ...extra };
}

async function expectServedConsole(started: Started, reason: RegExp): Promise<void> {
  const url = /^Cloud Queue Console is running at (http:\/\/127\.0\.0\.1:\d+)\/ \(Ctrl\+C stops it\)$/.exec(
    started.firstLine,
  )?.[1];
  expect(url, started.firstLine).toBeDefined();
  const page = await fetch(`${url}/`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<div id="root">');
  const said = started
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('Electron is not available'));
  expect(said).toHaveLength(1);
  expect(said[0]).toMatch(reason);
  expect(said[0]).toMatch(/Serving the console headless instead\.$/);
  expect(started.stderr()).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(await started.stop()).toBe(0);
}

describe('npm start without the desktop app', () => {
  it('on a machine without a display: says so in one line and serves the console headless', async () => {
    const started = await start(['--port', '0', '--ephemeral'], headlessEnv());
    await expectServedConsole(started, /there is no display for a desktop window \(DISPLAY is not set\)/);
  });

  it('asked for the browser (--browser): serves the console headless', async () => {
    const started = await start(['--browser', '--port', '0', '--ephemeral'], headlessEnv({ DISPLAY: ':0' }));
    await expectServedConsole(started, /you asked for the browser \(--browser\)/);
  });

  // Where a binary was downloaded, this would open the desktop app: only without one.
  const binaryPresent = existsSync(join(PROJECT_ROOT, 'node_modules/electron/path.txt'));
  it.skipIf(binaryPresent)(
    'when the Electron binary cannot be downloaded: says why in one line (no stack trace) and serves headless',
    async () => {
      const failureFile = join(PROJECT_ROOT, 'node_modules/.cache/cloud-queue-console/electron-unavailable.json');
      rmSync(failureFile, { force: true });
      try {
        // A mirror that refuses every connection: the download fails at once, as offline.
        const env = headlessEnv({ DISPLAY: ':0', ELECTRON_MIRROR: 'http://127.0.0.1:9/', ELECTRON_GET_USE_PROXY: '' });
        const started = await start(['--desktop', '--port', '0', '--ephemeral'], env);
        await expectServedConsole(started, /the Electron binary could not be downloaded \(.+\)/);
        // The next start does not try again for a day, and says so.
        const again = await start(['--port', '0', '--ephemeral'], env);
        await expectServedConsole(again, /could not be downloaded \(.+; not retried until .+\)/);
      } finally {
        rmSync(failureFile, { force: true });
      }
    },
    120_000,
  );
});
