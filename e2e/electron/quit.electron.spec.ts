/**
 * Quitting the desktop app closes its engine: the app's data folder is its data dir, held with a
 * lock and a record of who holds it (main/engine/store/data-dir-lock.ts) while the engine runs.
 * After the app quits the record is gone (the engine released its claim; a killed process would
 * leave it) and another console opens the folder. Runs where an Electron binary exists; elsewhere
 * it says so plainly and is skipped.
 */
import { expect, test } from '@playwright/test';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HOLDER_FILE } from '../../main/engine/store/data-dir-lock';
import { startServe } from '../../main/testing/serve-process';
import { ConsolePage } from '../pages/console-page';
import { binary, launchElectronApp, newUserDataDir, NOT_RUN_REASON } from './app';

test.describe('quitting the Electron app', () => {
  test.skip(!binary, NOT_RUN_REASON);

  test('closes the engine: the data dir is held while the app runs, and free once it has quit', async () => {
    const userData = newUserDataDir();
    try {
      const app = await launchElectronApp(userData);
      await new ConsolePage(await app.firstWindow()).waitUntilLive();
      const holder = JSON.parse(readFileSync(join(userData, HOLDER_FILE), 'utf8')) as { pid: number; kind: string };
      expect(holder).toMatchObject({ pid: app.process().pid, kind: 'desktop app' });
      // While the app runs, a second console on its folder refuses to start, naming the app.
      await expect(startServe(['--port', '0', '--data-dir', userData])).rejects.toThrow(
        /another Cloud Queue Console \(pid \d+, started .+: desktop app\)/,
      );

      await app.close();
      expect(existsSync(join(userData, HOLDER_FILE))).toBe(false);
      const served = await startServe(['--port', '0', '--data-dir', userData]);
      await served.stop('SIGTERM');
    } finally {
      rmSync(userData, { recursive: true, force: true });
    }
  });
});
