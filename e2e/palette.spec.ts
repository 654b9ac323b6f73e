/**
 * The command palette (docs/ui.md, Ctrl+K) finds what it shows: typing an item's label as it
 * reads puts it first, and Enter does it — an area opens, a preset goes in, the guided demo opens.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { adminApi } from './admin-api';
import { expect, test } from './fixtures';
import { DemoPage } from './pages/demo-page';

async function choose(page: Page, typed: string): Promise<string> {
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Command palette' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox').fill(typed);
  const selected = dialog.getByRole('option', { selected: true });
  await expect(selected).toBeVisible();
  const label = (await selected.locator('span').first().textContent()) ?? '';
  // SHOTS=<dir>: the palette at 1440 px in both themes, to look at.
  const shots = process.env.SHOTS;
  for (const scheme of shots ? (['light', 'dark'] as const) : []) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${shots}/palette-${typed.replace(/\W+/g, '-').toLowerCase()}-${scheme}.png` });
  }
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  return label;
}

test.describe('the command palette', () => {
  test.afterEach(async ({ served }) => {
    await adminApi(served.ready, 'DELETE', '/faults');
  });

  test('types "Go to Faults", "Inject 503" and "Show the guided demo", and each one runs', async ({
    consolePage,
    page,
    served,
  }) => {
    if (process.env.SHOTS) await page.setViewportSize({ width: 1440, height: 900 });
    await consolePage.waitUntilLive();
    expect(await choose(page, 'Go to Faults')).toBe('Go to Faults');
    await expect(page).toHaveURL(/#\/faults/);
    await expect(page.getByRole('heading', { level: 1, name: 'Faults' })).toBeVisible();

    const presets = await adminApi<{ id: string; label: string }[]>(served.ready, 'GET', '/faults/presets');
    const label = await choose(page, 'Inject 503');
    const injected = presets.find((p) => label === `Inject ${p.label}`);
    expect(injected, `${label} is a preset`).toBeTruthy();
    // The preset's rule is in: one rule, of that preset's status.
    await expect
      .poll(async () => (await adminApi<{ label?: string }[]>(served.ready, 'GET', '/faults')).length)
      .toBe(1);

    expect(await choose(page, 'Show the guided demo')).toBe('Show the guided demo');
    const demo = new DemoPage(page);
    await expect(demo.panel).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(demo.panel).toHaveCount(0);
  });

  test('shows each item’s key, passes axe, and runs an area’s button from another area', async ({
    consolePage,
    page,
  }) => {
    const shots = process.env.SHOTS;
    if (shots) await page.setViewportSize({ width: 1440, height: 900 });
    await consolePage.waitUntilLive();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Command palette' });
    // Nothing typed: everything, grouped by area; no serious axe finding in either theme.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      if (shots) await page.screenshot({ path: `${shots}/palette-all-${scheme}.png` });
      const results = await new AxeBuilder({ page })
        .include('dialog[open]')
        .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
        .analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`))).toEqual([]);
    }
    await dialog.getByRole('combobox').fill('go to');
    await expect(dialog.getByRole('option').locator('kbd')).toHaveText(['1', '2', '3', '4', '5', '6', '7', '8']);
    await page.keyboard.press('Escape');
    // From the OAuth area: the Faults area opens and its "New scenario" button's editor with it.
    expect(await choose(page, 'New scenario')).toBe('New scenario');
    await expect(page).toHaveURL(/#\/faults/);
    await expect(page.getByRole('button', { name: 'Save scenario' })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
  });
});
