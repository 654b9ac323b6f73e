/**
 * Accessibility of every area with real content in it: axe-core finds no serious or
 * critical violation in the system's light and dark; a theme chosen in the app draws every element
 * as the system's same scheme does; the chosen theme is remembered and applied before the app's
 * own script runs; every Tab stop shows its focus ring.
 *
 * The specs are independent (each its own page; a worker's console holds the scene once), so the
 * two workers share them: the axe passes over every area are the e2e run's longest specs. The
 * consoles they run on are theirs alone (`ownConsole`).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { adminApi } from './admin-api';
import { expect, test } from './fixtures';
import { recordFocusStops, takeFocusStops } from './pages/layout';
import { AREA_NAMES, setScene, show, type Scene } from './pages/showcase';
import { compareAfterSwitch, readColours } from './pages/theme-colours';

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
  { name: 'light', bg: LIGHT_BG },
  { name: 'dark', bg: DARK_BG },
] as const;

// Axe judges each area in the system's two schemes. A theme chosen in the app draws every element
// in exactly the colours of the system's same scheme (the spec after these), so two more full
// passes, chosen over the other system scheme, would judge the same page twice (about 50 s).
for (const scheme of SCHEMES) {
  test(`no serious or critical axe violation in any area: ${scheme.name}, the system’s`, async ({
    consolePage,
    page,
  }) => {
    test.setTimeout(120_000);
    // Still frames: a flash that fades (a new queueVersion, a rule's hit) is not what is judged.
    await page.emulateMedia({ colorScheme: scheme.name, reducedMotion: 'reduce' });
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

test('a theme chosen in the app draws every element of every area as the system’s same scheme', async ({
  consolePage,
  page,
  served,
}) => {
  // Through the admin API, not the status bar's buttons: a pointer left over one draws its hover
  // between the two reads. The radio checked is waited for, so both reads see it.
  const clock = async (speed: 0 | 1) => {
    await adminApi(served.ready, 'POST', '/clock', { speed });
    const radio = page
      .getByRole('radiogroup', { name: 'Clock speed' })
      .getByRole('radio', { name: speed ? '1×' : 'Stop' });
    await expect(radio).toHaveAttribute('aria-checked', 'true');
  };
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await consolePage.waitUntilLive();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme');
  for (const area of AREA_NAMES) {
    await show(page, scene!, area);
    // The clock stopped between the two reads: a transition it brought in between (CI: the state
    // diagram's newest path, drawn in the accent) is no difference of the theme's.
    await clock(0);
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    await readColours(page, 'dark');
    await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    const { compared, differences } = await compareAfterSwitch(page, 'dark');
    await clock(1);
    expect(differences, area).toEqual([]);
    expect(compared, `${area}: elements compared`).toBeGreaterThan(100);
  }
});

test('the theme chosen is remembered, and applied before the app’s script runs', async ({ consolePage, page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const theme = page.getByRole('radiogroup', { name: 'Theme' });
  // A theme chosen is `<html data-theme>`, all the colours spec above sets (pages/theme-colours.ts).
  await theme.getByRole('radio', { name: 'Light theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
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
  await recordFocusStops(page);
  const missing: string[] = [];
  for (const area of AREA_NAMES) {
    await show(page, scene!, area);
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await takeFocusStops(page);
    // Up to 120 stops, or until the focus comes round to a stop it was on; read every 10 presses.
    const seen = new Set<string>();
    walk: for (let pressed = 0; pressed < 120;) {
      for (const end = pressed + 10; pressed < end; pressed++) await page.keyboard.press('Tab');
      for (const { id, ringless } of await takeFocusStops(page)) {
        if (seen.has(id)) break walk;
        seen.add(id);
        if (ringless) missing.push(`${area}: ${ringless}`);
      }
    }
  }
  expect(missing).toEqual([]);
});
