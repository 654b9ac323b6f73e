/**
 * The guided demo (docs/demo.md): on a first run the checklist is there; a presenter
 * clicks it through start to end in under 10 clicks (the sign-in tab's two included), each step
 * ticking once the engine confirms it; it is keyboard operable and passes axe in both themes.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { adminApi } from './admin-api';
import { expect, test } from './fixtures';
import { DemoPage } from './pages/demo-page';
import { LoginPages } from './pages/oauth-page';

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('#guided-demo').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

// The demo drives the first player through a whole journey: on a console of its own, so no other
// spec's session or fault meets it, and it leaves none behind.
test.use({ ownConsole: 'demo' });

test.describe('the guided demo', () => {
  test.describe('on a first run', () => {
    // A new user's browser: the demo was never closed here.
    test.use({ firstRun: true });

    test('runs start to end in under 10 clicks, each step ticking when the engine confirms it', async ({
      page,
      served,
    }) => {
      test.setTimeout(90_000);
      await page.goto(served.ready.urls.console);
      const demo = new DemoPage(page);
      // The first run: the checklist is there without a click.
      await expect(demo.panel).toBeVisible();
      await expect(demo.steps.getByRole('listitem')).toHaveCount(6);

      let clicks = 0;
      const click = async (target: Locator) => {
        clicks += 1;
        await target.click();
      };

      // 1. Sign in as the integration: the sample flow in a tab, as demo / demo.
      const popup = page.waitForEvent('popup');
      await click(demo.button('signIn', 'Sign in'));
      const login = new LoginPages(await popup);
      await login.page.getByLabel('Username').fill('demo');
      await login.page.getByLabel('Password').fill('demo');
      await click(login.page.getByRole('button', { name: 'Sign in' }));
      await click(login.page.getByRole('button', { name: 'Allow' }));
      await demo.expectTicked('signIn');
      await expect(demo.step('signIn')).toContainText('Sample integration');
      await page.bringToFront();

      // 2. Play: a session made and the queue loaded, as the integration's grant, not the console's.
      await expect(demo.step('play')).not.toHaveAttribute('data-done', 'true');
      await click(demo.button('play', 'Play'));
      await demo.expectTicked('play');
      await expect(demo.step('play')).toContainText('plays “Demo queue”');
      const loads = await adminApi<{ path: string; requestHeaders: Record<string, string> }[]>(
        served.ready,
        'GET',
        '/traffic?target=control&text=loadCloudQueue',
      );
      expect(loads.length).toBeGreaterThan(0);
      const senders = await adminApi<{ grantId: string; tokenHint: string; integrationName: string }[]>(
        served.ready,
        'GET',
        '/control/senders',
      );
      const sample = senders.find((s) => s.integrationName === 'Sample integration')!;
      // The control API saw the integration's token (masked in the log: its first characters).
      expect(loads.at(-1)!.requestHeaders.authorization).toContain(sample.tokenHint.slice(0, 4));

      // 3. Skip, 4. Pause.
      await click(demo.button('skip', 'Skip'));
      await demo.expectTicked('skip');
      await click(demo.button('pause', 'Pause'));
      await demo.expectTicked('pause');
      const state = await adminApi<{ playbackState: string }>(served.ready, 'GET', '/players/player-kitchen/detail');
      expect(state.playbackState).toBe('PLAYBACK_STATE_PAUSED');

      // 5. The reports reached the server: the count is the queue's.
      await click(demo.button('reports', 'Show reports'));
      await demo.expectTicked('reports');
      const queues = await adminApi<{ id: string; name: string }[]>(served.ready, 'GET', '/queues');
      const queue = queues.find((q) => q.name === 'Demo queue')!;
      const reports = await adminApi<unknown[]>(served.ready, 'GET', `/queues/${queue.id}/reports`);
      expect(reports.length).toBeGreaterThan(0);
      await expect(demo.step('reports').getByTestId('demo-report-count')).toHaveText(String(reports.length));

      // 6. A 503, and the retries: the first answer at once, a retry after its wait.
      await click(demo.button('retries', 'Inject 503'));
      await demo.expectTicked('retries');
      await expect(demo.step('retries').getByTestId('demo-failure-count')).not.toHaveText('0');
      await expect(demo.step('retries').getByTestId('demo-retry-count')).not.toHaveText('0', { timeout: 30_000 });
      await expect(demo.panel).toContainText('All done.');

      expect(clicks).toBeLessThan(10);
      if (process.env.SHOT) await page.screenshot({ path: process.env.SHOT });
    });
  });

  test('opens on demand from the sidebar and with D, closes with Escape, and passes axe in both themes', async ({
    consolePage,
    page,
  }) => {
    const demo = new DemoPage(page);
    await consolePage.waitUntilLive();
    // Not a first run (the fixtures' browsers closed the demo before): nothing in the way of the area.
    await expect(demo.panel).toHaveCount(0);
    await page.keyboard.press('d');
    await expect(demo.panel).toBeVisible();
    await expect(demo.panel).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(demo.panel.getByRole('button', { name: 'Close the guided demo' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(demo.panel).toHaveCount(0);
    await expect(demo.launcher).toBeFocused();
    await expect(demo.launcher).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('Enter');
    await expect(demo.panel).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      expect(await seriousViolations(page)).toEqual([]);
    }
    // Closed once, it stays closed on the next load.
    await demo.panel.getByRole('button', { name: 'Close the guided demo' }).click();
    expect(await page.evaluate(() => localStorage.getItem('cqc-demo-dismissed'))).toBe('1');
  });
});
