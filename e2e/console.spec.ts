import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe } from '../main/testing/serve-process';
import { ConsolePage } from './pages/console-page';
import { expect, test } from './fixtures';

test.describe('the console frame in Chromium', () => {
  test('shows the four service URLs of the engine it runs on', async ({ consolePage, served, page }) => {
    // Wide enough for the bar to show them (narrower they fold into the Services popover).
    await page.setViewportSize({ width: 1440, height: 900 });
    for (const [service, url] of Object.entries(served.ready.urls)) {
      const card = consolePage.serviceUrl(service as keyof typeof served.ready.urls);
      await expect(card).toHaveAttribute('data-url', url);
      await expect(card).toHaveText(`:${new URL(url).port}`);
    }
  });

  test('stopping the clock and advancing it by 1 h moves engine time by exactly 1 h', async ({ consolePage }) => {
    await consolePage.setSpeed('Stop');
    const before = await consolePage.engineNow();
    await expect(consolePage.engineTime).toHaveAttribute('data-speed', '0');
    await consolePage.advance('1 h');
    await expect(consolePage.engineTime).toHaveAttribute('data-now', String(before + 3_600_000));
    // The text moves by the same hour.
    const shown = await consolePage.engineTime.textContent();
    const expected = await consolePage.page.evaluate((ms) => {
      const d = new Date(ms);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    }, before + 3_600_000);
    expect(shown).toBe(expected);
    await consolePage.setSpeed('1×');
  });

  test('opens each area from the sidebar and with keys 1–5', async ({ consolePage, page }) => {
    for (const [key, name] of [
      ['2', 'Queues'],
      ['3', 'Player'],
      ['4', 'Traffic'],
      ['5', 'Faults'],
      ['1', 'OAuth'],
    ] as const) {
      await page.keyboard.press(key);
      await expect(consolePage.area(name)).toHaveAttribute('aria-current', 'page');
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    }
    await consolePage.area('Traffic').click();
    await expect(page).toHaveURL(/#\/traffic$/);
    await page.reload();
    await expect(consolePage.area('Traffic')).toHaveAttribute('aria-current', 'page');
  });

  test('copies a service URL to the clipboard', async ({ consolePage, page, served, context }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: served.ready.urls.console });
    await consolePage.copyButton('login').click();
    await expect(consolePage.copyButton('login')).toHaveAttribute('data-state', 'copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(served.ready.urls.login);
  });

  test("shows no warnings while there are none, and the engine's warnings when there are: a traffic log that could not be read", async ({
    consolePage,
    page,
  }) => {
    await consolePage.waitUntilLive();
    await expect(page.getByRole('contentinfo').locator('summary[aria-label*="engine warning"]')).toHaveCount(0);
    // A data dir whose traffic log is garbage: the console puts it aside, starts a new one, and warns.
    // (A console ran there first: a traffic log without the console's database is refused.)
    const dataDir = mkdtempSync(join(tmpdir(), 'cqc-e2e-damaged-log-'));
    await (await startServe(['--port', '0', '--data-dir', dataDir])).stop('SIGTERM');
    writeFileSync(join(dataDir, 'traffic.sqlite'), randomBytes(64 * 1024));
    const damaged = await startServe(['--port', '0', '--data-dir', dataDir]);
    try {
      await new ConsolePage(page).open(damaged.ready.urls.console);
      const count = page.locator('summary[aria-label="1 engine warning"]');
      await expect(count).toHaveText('⚠ 1');
      await count.click();
      const list = page.getByRole('list', { name: 'Engine warnings' });
      await expect(list).toContainText('Traffic log');
      await expect(list).toContainText(
        `the traffic log could not be read (file is not a database); it was put aside as ${join(dataDir, 'traffic.sqlite')}.damaged-`,
      );
      if (process.env.SHOT) await page.screenshot({ path: process.env.SHOT });
    } finally {
      await damaged.stop('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
