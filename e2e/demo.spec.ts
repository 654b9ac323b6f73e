/**
 * The guided demo (docs/demo.md): on a first run the checklist is there; a presenter opens it
 * with D from any area and clicks it through start to end in 8 clicks (the sign-in popup's two
 * included) without once choosing an area: each step takes the console to the area it is about,
 * ticks once the engine confirms it, and the sign-in popup closes by itself. It is keyboard
 * operable and passes axe in both themes.
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

/** `target` is on screen and the checklist covers none of it (polled: the area may be scrolling it clear). */
async function expectInViewBeside(target: Locator, panel: Locator, what: string): Promise<void> {
  await expect(target).toBeInViewport();
  await expect(async () => {
    const [a, b] = [await target.boundingBox(), await panel.boundingBox()];
    expect(a && b).toBeTruthy();
    const overlaps =
      a!.x < b!.x + b!.width && b!.x < a!.x + a!.width && a!.y < b!.y + b!.height && b!.y < a!.y + a!.height;
    expect(overlaps, `the checklist covers ${what}`).toBe(false);
  }).toPass({ timeout: 5_000 });
}

/** The Player page's State panel (state, diagram, retry waits) is on screen and the checklist covers none of it. */
const expectStateInView = (page: Page, panel: Locator) =>
  expectInViewBeside(page.getByRole('region', { name: 'State' }), panel, 'the player state');

// The demo drives the first player through a whole journey: on a console of its own, so no other
// spec's session or fault meets it, and it leaves none behind.
test.use({ ownConsole: 'demo' });

test.describe('the guided demo', () => {
  test('opens by itself on a first run, over the area the address names', async ({ page, served, browser }) => {
    // A console whose demo was never closed, and a new user's browser.
    await adminApi(served.ready, 'PATCH', '/preferences', { demoDismissed: false });
    const firstRun = await browser.newContext();
    try {
      const fresh = await firstRun.newPage();
      await fresh.goto(`${served.ready.urls.console}#/traffic`);
      const demo = new DemoPage(fresh);
      await expect(demo.panel).toBeVisible();
      await expect(fresh).toHaveURL(/#\/traffic/);
      // Opened by itself, it takes no focus: the first Tab stop is the page's own, a skip past the
      // areas' list to the area, and Tab from the area goes on in it (ui-x3 U10: the first four
      // stops were the demo's).
      await expect(demo.panel).not.toBeFocused();
      await fresh.keyboard.press('Tab');
      const skip = fresh.getByRole('button', { name: 'Skip to the area' });
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      await fresh.keyboard.press('Enter');
      await expect(fresh.locator('main')).toBeFocused();
      await fresh.keyboard.press('Tab');
      expect(await fresh.evaluate(() => document.querySelector('main')!.contains(document.activeElement))).toBe(true);
      // Closed there, the console remembers it, not only that browser: another browser (or this
      // console started on another port, another origin with empty storage) does not open it.
      await demo.panel.getByRole('button', { name: 'Close the guided demo' }).click();
      await expect
        .poll(async () => (await adminApi(served.ready, 'GET', '/preferences')) as object)
        .toMatchObject({
          demoDismissed: true,
        });
    } finally {
      await firstRun.close();
    }
    const otherBrowser = await browser.newContext();
    try {
      const other = await otherBrowser.newPage();
      await other.goto(served.ready.urls.console);
      await expect(other.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(new DemoPage(other).panel).toHaveCount(0);
    } finally {
      await otherBrowser.close();
    }
    // This spec's own browsers closed it once before (e2e/fixtures.ts): the area alone.
    await page.goto(served.ready.urls.console);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(new DemoPage(page).panel).toHaveCount(0);
  });

  test('D, then 8 clicks to the end: each step shows its area, the sign-in popup closes by itself', async ({
    page,
    served,
  }) => {
    test.setTimeout(120_000);
    // SHOTS=<dir>: each step at 1440 px (the last at 1024 px) in both themes, to look at.
    const shots = process.env.SHOTS;
    if (shots) await page.setViewportSize({ width: 1440, height: 900 });
    const shoot = async (name: string) => {
      if (!shots) return;
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({ path: `${shots}/demo-${name}-${scheme}.png` });
      }
    };
    // Started from an area no step is about: every area change below is the demo's, none the presenter's.
    await page.goto(`${served.ready.urls.console}#/traffic`);
    await expect(page.getByRole('heading', { level: 1, name: 'Traffic' })).toBeVisible();
    const demo = new DemoPage(page);
    await page.keyboard.press('d');
    await expect(demo.panel).toBeVisible();
    await expect(demo.steps.getByRole('listitem')).toHaveCount(6);
    await shoot('0-open');

    const clicks: string[] = [];
    const click = async (target: Locator, what: string) => {
      clicks.push(what);
      await target.click();
    };
    // The area the console shows, from its address.
    const expectArea = async (area: 'oauth' | 'player', search?: RegExp) => {
      await expect(page).toHaveURL(new RegExp(`#/${area}(\\?|$)`));
      if (search) await expect(page).toHaveURL(search);
      await expect(page.getByRole('navigation', { name: 'Console areas' }).locator('[aria-current="page"]')).toHaveText(
        area === 'oauth' ? /OAuth/ : /Player/,
      );
    };

    // 1. Sign in as the integration: the sample flow in a popup over the console, as demo / demo.
    const popupOpened = page.waitForEvent('popup');
    await click(demo.button('signIn', 'Sign in'), 'Sign in');
    const login = new LoginPages(await popupOpened);
    // The OAuth area, on the flow being signed in: its timeline fills in as the partner watches.
    await expectArea('oauth', /flow=/);
    await shoot('1-sign-in');
    await login.page.getByLabel('Username').fill('demo');
    await login.page.getByLabel('Password').fill('demo');
    await click(login.page.getByRole('button', { name: 'Sign in' }), 'popup: Sign in');
    const popupClosed = login.page.waitForEvent('close', { timeout: 20_000 });
    await click(login.page.getByRole('button', { name: 'Allow' }), 'popup: Allow');
    await demo.expectTicked('signIn');
    await expect(demo.step('signIn')).toContainText('Sample integration');
    // The redirect came back: the demo closed its popup; nothing to find or close by hand.
    await popupClosed;
    expect(page.context().pages()).toEqual([page]);
    await shoot('1-signed-in');

    // 2. Play: a session made and the queue loaded, as the integration's grant, not the console's.
    await expect(demo.step('play')).not.toHaveAttribute('data-done', 'true');
    await click(demo.button('play', 'Play'), 'Play');
    await expectArea('player', /player=player-kitchen/);
    await demo.expectTicked('play');
    await expect(demo.step('play')).toContainText('plays “Demo queue”');
    // The focus followed to the next step's button, not back to the page's start (audit).
    await expect(demo.button('skip', 'Skip')).toBeFocused();
    // The player's state is in view beside the checklist, not under it.
    await expectStateInView(page, demo.panel);
    await shoot('2-play');
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

    // 3. Skip, 4. Pause: on the Player page, whose state follows.
    await click(demo.button('skip', 'Skip'), 'Skip');
    await demo.expectTicked('skip');
    await expectArea('player');
    await shoot('3-skip');
    await click(demo.button('pause', 'Pause'), 'Pause');
    await demo.expectTicked('pause');
    await expectArea('player');
    await expectStateInView(page, demo.panel);
    await shoot('4-pause');
    const state = await adminApi<{ playbackState: string }>(served.ready, 'GET', '/players/player-kitchen/detail');
    expect(state.playbackState).toBe('PLAYBACK_STATE_PAUSED');

    // 5. The reports reached the server: the count is the queue's.
    await click(demo.button('reports', 'Show reports'), 'Show reports');
    await demo.expectTicked('reports');
    await expectArea('player');
    const queues = await adminApi<{ id: string; name: string }[]>(served.ready, 'GET', '/queues');
    const queue = queues.find((q) => q.name === 'Demo queue')!;
    const reports = await adminApi<unknown[]>(served.ready, 'GET', `/queues/${queue.id}/reports`);
    expect(reports.length).toBeGreaterThan(0);
    await expect(demo.step('reports').getByTestId('demo-report-count')).toHaveText(String(reports.length));
    await shoot('5-reports');

    // 6. A 503, and the retries: the first answer at once, a retry after its wait, on the Player page.
    // In a 1024 px window, where the checklist floats over the column the rule is listed in.
    await page.setViewportSize({ width: 1024, height: 768 });
    await click(demo.button('retries', 'Inject 503'), 'Inject 503');
    await demo.expectTicked('retries');
    await expectArea('player');
    await expect(demo.step('retries').getByTestId('demo-failure-count')).not.toHaveText('0');
    await expect(demo.step('retries').getByTestId('demo-retry-count')).not.toHaveText('0', { timeout: 30_000 });
    await expect(demo.panel).toContainText('All done.');
    // The retries show on the Player page beside the checklist, and the rule that step put in with
    // them: the steps done before it are chips by now (audit-ui W5: the checklist covered it), and
    // the area scrolls the rule out from under it.
    await expectStateInView(page, demo.panel);
    const rule = page
      .getByRole('region', { name: 'Fault rules' })
      .getByRole('listitem')
      .filter({ hasText: '503 storm (guided demo)' });
    await expectInViewBeside(rule, demo.panel, 'the rule the demo put in');
    // The chips of the steps done pass axe too (their contrast above all), in both themes.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await seriousViolations(page)).toEqual([]);
    }
    await shoot('6-retries');

    // D to done: 8 clicks, none of them on the sidebar.
    expect(clicks).toEqual([
      'Sign in',
      'popup: Sign in',
      'popup: Allow',
      'Play',
      'Skip',
      'Pause',
      'Show reports',
      'Inject 503',
    ]);
    expect(clicks.length).toBeLessThanOrEqual(8);

    // Start over takes back the 503 the last step left live (audit: a second Play met it).
    const startOver = demo.panel.getByRole('button', { name: 'Start over' });
    await expect(startOver).toBeFocused();
    const rules = async () => (await adminApi<unknown[]>(served.ready, 'GET', '/faults')).length;
    const live = await rules();
    expect(live).toBeGreaterThan(0);
    await startOver.click();
    await expect.poll(rules).toBe(live - 1);
    await expect(demo.step('play')).not.toHaveAttribute('data-done', 'true');
    if (process.env.SHOT) await page.screenshot({ path: process.env.SHOT });
  });

  test('below 1600 px the open checklist leaves a page that fills the area its height, and room to scroll', async ({
    consolePage,
    page,
  }) => {
    await consolePage.waitUntilLive();
    await page.setViewportSize({ width: 1280, height: 720 });
    await consolePage.area('Traffic').click();
    const area = page.locator('main');
    const pageHeight = () =>
      area
        .locator('> *')
        .first()
        .evaluate((element) => element.getBoundingClientRect().height);
    const before = await pageHeight();
    const demo = new DemoPage(page);
    await page.keyboard.press('d');
    await expect(demo.panel).toBeVisible();
    // The Traffic page fills the area: the room under the checklist comes after it, not out of it.
    await expect.poll(async () => area.evaluate((main) => main.scrollHeight - main.clientHeight)).toBeGreaterThan(100);
    expect(await pageHeight()).toBe(before);
    await page.keyboard.press('Escape');
  });

  test('folds out of the way once the presenter works in the area, where the area does not keep clear of it', async ({
    consolePage,
    page,
  }) => {
    const demo = new DemoPage(page);
    await consolePage.waitUntilLive();
    const unfolded = demo.panel.getByRole('button', { name: 'Fold the demo to its title' });
    const heading = page.getByRole('heading', { level: 1 });
    // Wide: the area keeps clear of it, so a click in the area leaves it open.
    await page.setViewportSize({ width: 1700, height: 900 });
    await page.keyboard.press('d');
    await expect(unfolded).toBeVisible();
    await heading.click();
    await expect(unfolded).toBeVisible();
    // Narrow: it covered the area's controls (audit); the presenter's click in the area folds it.
    await page.setViewportSize({ width: 1024, height: 768 });
    await heading.click();
    const folded = demo.panel.getByRole('button', { name: 'Show the demo steps' });
    await expect(folded).toHaveAttribute('aria-expanded', 'false');
    expect((await demo.panel.boundingBox())!.height).toBeLessThan(80);
    // Unfolded again, a key pressed in the area folds it too.
    await folded.click();
    await expect(unfolded).toBeVisible();
    await page.locator('main button').first().focus();
    await page.keyboard.press('Shift');
    await expect(folded).toBeVisible();
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
    // Folded to its title line, it covers next to nothing of the area; unfolded, its steps are back.
    const fold = demo.panel.getByRole('button', { name: 'Fold the demo to its title' });
    await expect(fold).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(demo.panel.getByRole('button', { name: 'Show the demo steps' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    const steps = page.locator('#guided-demo-steps');
    await expect(steps).toBeHidden();
    expect((await demo.panel.boundingBox())!.height).toBeLessThan(80);
    await page.keyboard.press('Enter');
    await expect(steps).toBeVisible();
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
