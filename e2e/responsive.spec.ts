/**
 * The frame at three window widths, every area with real content in it: the page never
 * scrolls sideways, the status bar stays one line, no table is cut; at 1024 px the sidebar is its
 * icons (each still named, its name shown on hover), at 1440 px it is whole; at 1920 px the panes
 * sit side by side; the traffic entry's pane is resized by its splitter, by keyboard, and stays so.
 */
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { layoutProblems, sidebarWidth } from './pages/layout';
import { AREA_NAMES, setScene, show, type Scene } from './pages/showcase';

let scene: Scene;
test.beforeAll(async ({ served }) => {
  scene = await setScene(served.ready);
});

const WIDTHS = [
  { width: 1024, height: 768, sidebar: 'collapsed' },
  { width: 1440, height: 900, sidebar: 'expanded' },
  { width: 1920, height: 1080, sidebar: 'expanded' },
] as const;

for (const { width, height, sidebar } of WIDTHS) {
  test(`at ${width} px: no sideways scroll, a one-line status bar, no cut table, the sidebar ${sidebar}`, async ({
    consolePage,
    page,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height });
    await consolePage.waitUntilLive();
    const problems: string[] = [];
    for (const area of AREA_NAMES) {
      await show(page, scene, area);
      problems.push(...(await layoutProblems(page)).map((problem) => `${area}: ${problem}`));
    }
    expect(problems).toEqual([]);
    if (sidebar === 'collapsed') expect(await sidebarWidth(page)).toBeLessThan(80);
    else expect(await sidebarWidth(page)).toBeGreaterThan(150);
  });
}

test('at 1024 px each area’s icon keeps its name, shown beside it on hover and focus', async ({
  consolePage,
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  // The visible name beside the icon (its text is the area's name).
  const label = (button: Locator, name: string) =>
    button.getByText(name, { exact: true }).evaluate((element) => Number(getComputedStyle(element).opacity));
  for (const area of AREA_NAMES) {
    const button = consolePage.area(area);
    await expect(button).toHaveAccessibleName(area);
    await button.hover();
    await expect.poll(() => label(button, area)).toBe(1);
  }
  await page.mouse.move(600, 300);
  await consolePage.area('Traffic').focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect.poll(() => label(consolePage.area('Traffic'), 'Traffic')).toBe(1);
  await expect.poll(() => label(consolePage.area('Player'), 'Player')).toBe(0);
});

/** `b` sits right of `a`, their tops level: side by side. */
async function sideBySide(a: Locator, b: Locator): Promise<string | null> {
  const [left, right] = [(await a.boundingBox())!, (await b.boundingBox())!];
  return right.x >= left.x + left.width - 1 && Math.abs(right.y - left.y) < 40
    ? null
    : `${JSON.stringify(left)} then ${JSON.stringify(right)}`;
}

test('at 1920 px the panes of each area sit side by side', async ({ consolePage, page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await consolePage.waitUntilLive();
  const main = page.getByRole('main');
  const panes: Record<string, [Locator, Locator][]> = {
    OAuth: [[main.getByRole('region', { name: 'Integrations' }), main.getByRole('region', { name: 'Flow inspector' })]],
    Queues: [
      [
        main.getByRole('complementary', { name: 'Queues' }),
        main.getByRole('region', { name: `Queue ${scene.queue.name}` }),
      ],
      [main.getByRole('listbox', { name: 'Queue items' }), main.getByRole('tablist')],
    ],
    Player: [
      // The workbench: the state, the player's requests and now playing; the reports, the rules and the violations.
      [main.getByRole('region', { name: 'State' }), main.getByRole('region', { name: 'Requests', exact: true })],
      [main.getByRole('region', { name: 'Requests', exact: true }), main.getByRole('region', { name: 'Now playing' })],
      [
        main.getByRole('region', { name: 'Reports', exact: true }),
        main.getByRole('region', { name: 'Fault rules', exact: true }),
      ],
    ],
    Traffic: [
      [
        main.getByRole('listbox', { name: 'Traffic entries' }),
        main.getByRole('complementary', { name: 'Entry details' }),
      ],
    ],
    'Check a server': [[main.getByRole('form', { name: 'Server to check' }), main.locator('section[data-run-id]')]],
  };
  for (const [area, pairs] of Object.entries(panes)) {
    await show(page, scene, area as (typeof AREA_NAMES)[number]);
    for (const [index, [a, b]] of pairs.entries())
      expect(await sideBySide(a, b), `${area}, panes ${index + 1}`).toBeNull();
  }
});

test('the traffic entry’s pane is resized by its splitter, with the keyboard, and stays so after a reload', async ({
  consolePage,
  page,
}) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await consolePage.waitUntilLive();
  await show(page, scene, 'Traffic');
  const splitter = page.getByRole('separator', { name: 'Resize the entry details' });
  const detail = page.getByRole('complementary', { name: 'Entry details' });
  await expect(splitter).toHaveAttribute('aria-controls', (await detail.getAttribute('id'))!);
  const before = Number(await splitter.getAttribute('aria-valuenow'));
  const widthBefore = (await detail.boundingBox())!.width;

  await splitter.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(splitter).toHaveAttribute('aria-valuenow', String(before + 16 + 64));
  await expect.poll(async () => Math.round((await detail.boundingBox())!.width)).toBe(Math.round(widthBefore + 80));
  await page.keyboard.press('ArrowRight');
  await expect(splitter).toHaveAttribute('aria-valuenow', String(before + 64));
  // Home: the pane at its least width; the list never loses its columns (End stops there).
  await page.keyboard.press('Home');
  await expect(splitter).toHaveAttribute('aria-valuenow', (await splitter.getAttribute('aria-valuemin'))!);
  await page.keyboard.press('End');
  const widest = Number(await splitter.getAttribute('aria-valuenow'));
  expect(await layoutProblems(page)).toEqual([]);
  const list = (await page.getByRole('listbox', { name: 'Traffic entries' }).boundingBox())!;
  expect(list.width).toBeGreaterThanOrEqual(700);

  await page.reload();
  await consolePage.waitUntilLive();
  await expect(page.getByRole('separator', { name: 'Resize the entry details' })).toHaveAttribute(
    'aria-valuenow',
    String(widest),
  );
});
