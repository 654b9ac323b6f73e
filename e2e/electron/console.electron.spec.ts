/**
 * The console frame in the Electron app: the same flow as console.spec.ts, over IPC. The page is
 * on the console's own scheme (cqc://console), and the preload's bridge (`window.cqc`) carries every command and event: not one request
 * reaches the admin API. Runs where an Electron binary exists; elsewhere it says so and is skipped.
 */
import { expect, test } from '@playwright/test';
import { ConsolePage } from '../pages/console-page';
import { binary, NOT_RUN_REASON, withElectronApp } from './app';

/** What the page sees of the preload's bridge; the renderer's type for it lives in renderer/. */
type BridgeWindow = Window & {
  cqc?: { call(name: string, input: unknown): Promise<{ ok: boolean; value?: { now: number; speed: number } }> };
};

test.describe('the console frame in Electron', () => {
  test.skip(!binary, NOT_RUN_REASON);

  test('loads over IPC: the four service URLs, and the clock stopped and advanced by 1 h, without one admin API request', async () => {
    await withElectronApp(async (app) => {
      const consolePage = new ConsolePage(await app.firstWindow());
      const requests: string[] = [];
      consolePage.page.on('request', (request) => requests.push(request.url()));
      await consolePage.waitUntilLive();
      // The console's own scheme, never file://: only the bridge can answer the page.
      expect(consolePage.page.url()).toMatch(/^cqc:\/\/console\/index\.html/);
      expect(await consolePage.page.evaluate(() => Object.keys((window as BridgeWindow).cqc ?? {}).sort())).toEqual([
        'call',
        'subscribe',
      ]);

      for (const service of ['console', 'login', 'control', 'cloudQueue'] as const) {
        await expect(consolePage.serviceUrl(service)).toHaveAttribute('data-url', /^http:\/\/127\.0\.0\.1:\d+$/);
      }
      await consolePage.setSpeed('Stop');
      const before = await consolePage.engineNow();
      await consolePage.advance('1 h');
      await expect(consolePage.engineTime).toHaveAttribute('data-now', String(before + 3_600_000));

      // The engine time the page shows is the one the bridge answers with.
      const clock = await consolePage.page.evaluate(() => (window as BridgeWindow).cqc!.call('clock.get', {}));
      expect(clock).toMatchObject({ ok: true, value: { now: before + 3_600_000, speed: 0 } });
      expect(requests.filter((url) => url.includes('/admin/api/'))).toEqual([]);
    });
  });

  test('starts one window on its user-data folder, sandboxed: no Node in the page, only the bridge', async () => {
    await withElectronApp(async (app, userData) => {
      const page = await app.firstWindow();
      await new ConsolePage(page).waitUntilLive();
      expect(await page.title()).toBe('Cloud Queue Console');
      expect(
        await app.evaluate(({ app: electronApp, BrowserWindow }) => ({
          userData: electronApp.getPath('userData'),
          windows: BrowserWindow.getAllWindows().length,
        })),
      ).toEqual({
        userData,
        windows: 1,
      });
      const globals = await page.evaluate(() => ({
        process: typeof process,
        require: typeof require,
        module: typeof module,
        buffer: typeof Buffer,
        bridge: typeof (window as BridgeWindow).cqc,
      }));
      expect(globals).toEqual({
        bridge: 'object',
        process: 'undefined',
        require: 'undefined',
        module: 'undefined',
        buffer: 'undefined',
      });
    });
  });
});
