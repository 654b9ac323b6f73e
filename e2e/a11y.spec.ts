/**
 * Accessibility of every area with real content in it: axe-core finds no serious or
 * critical violation in light and dark, whether the scheme is the system's or chosen in the app;
 * the chosen theme is remembered and applied before the app's own script runs; every Tab stop
 * shows its focus ring.
 *
 * The specs are independent (each its own page; a worker's console holds the scene once), so the
 * two workers share them: four axe passes over every area are most of the e2e run's time. The
 * consoles they run on are theirs alone (`ownConsole`).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { adminApi } from './admin-api';
import { expect, test } from './fixtures';
import { focusStop } from './pages/layout';
import { AREA_NAMES, setScene, show, type Scene } from './pages/showcase';

test.describe.configure({ mode: 'parallel' });
// The scene (sessions, queues, runs, rules on every player) is these specs' own: on a shared
// console it met other specs (a session already on Kitchen, a run already kept).
test.use({ ownConsole: 'a11y' });

/** The worker's console's scene: set once per worker, however many of these specs it runs. */
let scene: Scene | undefined;
test.beforeAll(async ({ served }) => {
  if (scene) return;
  scene = await setScene(served.ready);
  // A state of its own to judge: a rule spent (its one hit taken by a version poll sent now, 1 ms
  // late), shown dimmed in the Player area's workbench and in the Faults area.
  const rule = await adminApi<{ id: string }>(served.ready, 'POST', '/faults', {
    target: 'player',
    match: { path: '/version' },
    action: { type: 'latency', ms: 1 },
    times: 1,
    label: 'spent rule',
  });
  await adminApi(served.ready, 'POST', `/faults/${rule.id}/trigger`, { playerId: scene.player.id });
  await expect
    .poll(
      async () =>
        (await adminApi<{ id: string; spent?: boolean }[]>(served.ready, 'GET', '/faults')).find(
          (r) => r.id === rule.id,
        )?.spent,
    )
    .toBe(true);
});

/** The serious and critical violations on the page as it is, one line per rule and element. */
async function seriousViolations(page: Page): Promise<string[]> {
  // axe.run in the page itself ("legacy mode"), not runPartial and finishRun in a blank page opened
  // for each pass (a new page and a second axe per pass, about 40% of a pass): the same rules over
  // the same document, which holds no frame that the legacy mode would leave out.
  expect(page.frames(), 'the console has a frame: axe must judge it (drop setLegacyMode)').toHaveLength(1);
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    // The rule is "experimental" in axe-core, so off by default: a name must contain what the control shows.
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id}: ${node.target.join(' ')} ${node.failureSummary?.split('\n').slice(1).join(' ') ?? ''}`,
      ),
    );
}

/** The page's background: how a spec tells which scheme the tokens resolved to. */
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const LIGHT_BG = 'rgb(244, 246, 248)';
const DARK_BG = 'rgb(17, 20, 24)';

const SCHEMES = [
  { name: 'light, the system’s', system: 'light', chosen: null, bg: LIGHT_BG },
  { name: 'dark, the system’s', system: 'dark', chosen: null, bg: DARK_BG },
  { name: 'light, chosen in the app over a dark system', system: 'dark', chosen: 'Light theme', bg: LIGHT_BG },
  { name: 'dark, chosen in the app over a light system', system: 'light', chosen: 'Dark theme', bg: DARK_BG },
] as const;

for (const scheme of SCHEMES) {
  test(`no serious or critical axe violation in any area: ${scheme.name}`, async ({ consolePage, page }) => {
    test.setTimeout(120_000);
    // Still frames: a flash that fades (a new queueVersion, a rule's hit) is not what is judged.
    await page.emulateMedia({ colorScheme: scheme.system, reducedMotion: 'reduce' });
    if (scheme.chosen)
      await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: scheme.chosen }).click();
    await expect.poll(() => background(page)).toBe(scheme.bg);
    await consolePage.waitUntilLive();

    const found: string[] = [];
    for (const area of AREA_NAMES) {
      await show(page, scene!, area);
      found.push(...(await seriousViolations(page)).map((line) => `${area}: ${line}`));
    }
    expect(found).toEqual([]);
  });
}

test('the theme chosen is remembered, and applied before the app’s script runs', async ({ consolePage, page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const theme = page.getByRole('radiogroup', { name: 'Theme' });
  await theme.getByRole('radio', { name: 'Dark theme' }).click();
  await expect(theme.getByRole('radio', { name: 'Dark theme' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  // Without the app's bundle the page is only index.html and theme-boot.js: already dark.
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await background(page)).toBe(DARK_BG);
  await page.unroute(/\/assets\/.*\.js$/);

  await page.reload();
  await consolePage.waitUntilLive();
  await expect(theme.getByRole('radio', { name: 'Dark theme' })).toHaveAttribute('aria-checked', 'true');
  // Arrow keys choose within the group: back to the system's scheme, which is light here.
  await theme.getByRole('radio', { name: 'Dark theme' }).press('Home');
  await expect(theme.getByRole('radio', { name: 'System theme' })).toBeFocused();
  await expect(theme.getByRole('radio', { name: 'System theme' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme');
  expect(await background(page)).toBe(LIGHT_BG);
});

test('every Tab stop of every area shows a focus ring', async ({ consolePage, page }) => {
  test.setTimeout(120_000);
  await consolePage.waitUntilLive();
  const missing: string[] = [];
  for (const area of AREA_NAMES) {
    await show(page, scene!, area);
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    // Up to 120 stops, or until the focus comes round to a stop it was on.
    const seen = new Set<string>();
    for (let stop = 0; stop < 120; stop++) {
      await page.keyboard.press('Tab');
      const { id, ringless } = await focusStop(page);
      if (seen.has(id)) break;
      seen.add(id);
      if (ringless) missing.push(`${area}: ${ringless}`);
    }
  }
  expect(missing).toEqual([]);
});
