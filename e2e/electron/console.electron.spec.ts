/**
 * The same frame flow as console.spec.ts, inside the Electron app (IPC transport). Runs where an
 * Electron binary exists; elsewhere it says so plainly and is skipped.
 */
import { expect, test } from '@playwright/test';
import { ConsolePage } from '../pages/console-page';
import { binary, withElectronApp } from './app';

test.describe('the console frame in Electron', () => {
  test.skip(!binary, 'no Electron binary on this machine');

  test('shows the four service URLs; stopping and advancing the clock by 1 h moves engine time by exactly 1 h', async () => {
    await withElectronApp(async (app) => {
      const consolePage = new ConsolePage(await app.firstWindow());
      await consolePage.waitUntilLive();
      for (const service of ['console', 'login', 'control', 'cloudQueue'] as const) {
        await expect(consolePage.serviceUrl(service)).toHaveAttribute('data-url', /^http:\/\/127\.0\.0\.1:\d+$/);
      }
      await consolePage.setSpeed('Stop');
      const before = await consolePage.engineNow();
      await consolePage.advance('1 h');
      await expect(consolePage.engineTime).toHaveAttribute('data-now', String(before + 3_600_000));
    });
  });
});
