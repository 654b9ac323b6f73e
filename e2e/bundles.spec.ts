/**
 * A repro bundle exported from the UI reproduces: the two walkthrough paths, taken as a user takes
 * them in Chromium, each ending in `cloud-queue-console run` on the downloaded file, which must
 * exit 0. Each path has a console of its own, fresh, with a queue playing on Kitchen.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { QueueSummary } from '../main/engine/api/queue-types';
import { PROJECT_ROOT, startServe, type ReadyLine, type ServeProcess } from '../main/testing/serve-process';
import { adminApi } from './admin-api';
import { expect, test as base } from './fixtures';
import { ConsolePage } from './pages/console-page';
import { PlayerPage } from './pages/player-page';
import { TrafficPage } from './pages/traffic-page';
import { loadOnPlayer } from './players';

/**
 * Each walkthrough on a console of its own, started for it: the bundle holds everything the
 * console saw, so another spec's players and rules must not be in it.
 */
const test = base.extend<{ fresh: ServeProcess; freshPage: ConsolePage }>({
  fresh: async ({}, use) => {
    const served = await startServe(['--port', '0', '--ephemeral']);
    await use(served);
    await served.stop('SIGTERM');
  },
  freshPage: async ({ page, fresh }, use) => {
    const consolePage = new ConsolePage(page);
    await consolePage.open(fresh.ready.urls.console);
    await use(consolePage);
  },
});

const tracks = Array.from({ length: 12 }, (_, i) => ({
  track: { name: `Repro song ${i + 1}`, mediaUrl: `https://media.example/repro/${i + 1}.mp3`, durationMillis: 240_000 },
}));

/** The walkthrough's start: a queue loaded and playing on Kitchen, as the command bar would load it. */
async function playingOnKitchen(ready: ReadyLine): Promise<void> {
  const queue = await adminApi<QueueSummary>(ready, 'POST', '/queues', { name: 'Repro mix', items: tracks });
  await loadOnPlayer(ready, 'group-kitchen', queue);
}

/** `node out/cli/bin.js run FILE`, as a user runs the built console: its exit code and what it printed. */
function runBundle(file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'out/cli/bin.js'), 'run', file], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

test.describe('Send now after a preset', () => {
  test('503 storm → Send now: Refresh → +1 min → Export repro bundle → run exits 0', async ({
    freshPage: consolePage,
    fresh,
    page,
  }, testInfo) => {
    test.setTimeout(90_000);
    await playingOnKitchen(fresh.ready);
    await consolePage.waitUntilLive();
    const player = new PlayerPage(page);
    await player.open('Kitchen');
    await player.expectState('PLAYING');

    // The preset's rule is listed by its own label.
    await player.injectPreset('503 storm with Retry-After');
    const rule = player.rule('503 storm');
    await expect(rule).toContainText('0 hits');
    await player.sendNow('Refresh', 'reason=refresh');
    await expect(rule.getByTestId('workbench-rule-hits')).not.toHaveAttribute('data-hits', '0');

    const before = await consolePage.engineNow();
    await consolePage.advance('1 min');
    await expect.poll(() => consolePage.engineNow()).toBeGreaterThanOrEqual(before + 60_000);

    const traffic = new TrafficPage(page);
    await traffic.open();
    const file = testInfo.outputPath('send-now.bundle.json');
    const bundle = await traffic.exportBundle(file);
    expect(bundle).toMatchObject({ format: 'cloud-queue-console/repro-bundle' });

    const { code, output } = await runBundle(file);
    expect(code, output).toBe(0);
    expect(output).toContain('PASSED');
  });
});

test.describe('a rule removed before the export', () => {
  test('inject → Trigger now → remove → Export repro bundle → run exits 0', async ({
    freshPage: consolePage,
    fresh,
    page,
  }, testInfo) => {
    test.setTimeout(90_000);
    await playingOnKitchen(fresh.ready);
    await consolePage.waitUntilLive();
    const player = new PlayerPage(page);
    await player.open('Kitchen');
    await player.expectState('PLAYING');

    // The rule acts before it goes: the 404 empties the queue, and Kitchen goes idle.
    const rule = await player.injectPreset('404 on itemWindow (refresh)');
    await rule.getByRole('button', { name: /^Trigger now/ }).click();
    await expect(player.faults.getByRole('status', { name: 'Trigger answer' })).toContainText('reason=refresh');
    await expect(rule.getByTestId('workbench-rule-hits')).toHaveAttribute('data-hits', '1');
    await player.expectState('IDLE');
    await player.removeRule('404 on itemWindow (refresh)');

    const traffic = new TrafficPage(page);
    await traffic.open();
    const file = testInfo.outputPath('removed-rule.bundle.json');
    const bundle = await traffic.exportBundle(file);
    expect(bundle).toMatchObject({ format: 'cloud-queue-console/repro-bundle' });

    const { code, output } = await runBundle(file);
    expect(code, output).toBe(0);
    expect(output).toContain('PASSED');
  });
});
