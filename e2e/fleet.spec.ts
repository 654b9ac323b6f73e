/**
 * The Fleet area in Chromium (docs/fleet.md): a form that refuses bad input beside its field and
 * keeps what was typed; a small fleet against the reference server, seen live (time played,
 * players by state, the charts) and stopped; another started from the command palette and let to
 * end, with its summary, thresholds and the JUnit report downloaded; a fleet against a server that
 * breaks the contract counts the violation by rule and links its sample exchange in Traffic.
 */
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import type { FleetListItem, FleetReport } from '../main/engine/api/fleet-types';
import { fleetWord } from '../main/engine/api/fleet-word';
import type { ReadyLine } from '../main/testing/serve-process';
import { adminApi } from './admin-api';
import { expect, test } from './fixtures';

/** SHOTS=<dir>: the area at 1440 and 1024 px in both themes, to look at. */
async function shoot(page: Page, name: string): Promise<void> {
  const shots = process.env.SHOTS;
  if (!shots) return;
  const size = page.viewportSize()!;
  for (const width of [1440, 1024])
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `${shots}/fleet-${name}-${width}-${scheme}.png`, fullPage: true });
    }
  await page.setViewportSize(size);
  await page.emulateMedia({ colorScheme: null });
}

/**
 * A fleet stopped after it played is judged on what it measured, and its heading says so in the
 * word the list and the exported report use ("stopped, failed" when the injected storm failed
 * the errors threshold; never "passed" for a fleet cut short: review).
 */
async function expectStoppedAsListed(main: Locator, ready: ReadyLine, id: string): Promise<void> {
  const listed = async () => (await adminApi<FleetListItem[]>(ready, 'GET', '/fleets')).find((f) => f.id === id);
  await expect.poll(async () => (await listed())?.status).toBe('stopped');
  const word = fleetWord((await listed())!);
  expect(word).toMatch(/^stopped/);
  await expect(main.getByTestId('fleet-status')).toHaveText(word);
}

async function fill(page: Page, fields: Record<string, string>): Promise<void> {
  const form = page.getByRole('form', { name: 'Start a fleet' });
  for (const [label, value] of Object.entries(fields)) await form.getByLabel(label, { exact: true }).fill(value);
}

test('starts a fleet, shows it live, stops it; lets another end and shows its summary and thresholds', async ({
  consolePage,
  served,
  page,
}, testInfo) => {
  test.setTimeout(40_000);
  await page.keyboard.press('8');
  await expect(consolePage.area('Fleet')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1, name: 'Fleet' })).toBeVisible();
  const main = page.getByRole('main');
  const form = main.getByRole('form', { name: 'Start a fleet' });

  // A field left by a click says its problem once the click is done: said at once, the line under
  // it moved the button pressed from under the pointer and the click was lost.
  await fill(page, { 'Skip rate': '1.5' });
  const outage = form.getByRole('button', { name: 'Add a one-minute outage' });
  await outage.click();
  await expect(form.getByText('Skip rate must be from 0 to 1.')).toBeVisible();
  await form.getByRole('button', { name: 'Remove fault 1' }).click();

  // Bad input: each said beside its field, the first focused, what was typed kept.
  await fill(page, { Players: '0', 'Duration (s)': 'ten', 'Skip rate': '1.5' });
  await form.getByRole('button', { name: 'Start fleet' }).click();
  await expect(form.getByText('Players must be from 1 to 20,000.')).toBeVisible();
  await expect(form.getByText('Duration must be a number, not “ten”.')).toBeVisible();
  await expect(form.getByText('Skip rate must be from 0 to 1.')).toBeVisible();
  await expect(form.getByLabel('Players', { exact: true })).toBeFocused();
  await expect(form.getByLabel('Duration (s)', { exact: true })).toHaveValue('ten');
  await expect(form.getByLabel('Players', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await shoot(page, 'errors');

  // A long fleet (10 minutes of listening at speed 10: a minute of wall time), seen live, then stopped.
  await fill(page, { Players: '20', 'Duration (s)': '600', 'Ramp (s)': '2', Speed: '10', 'Skip rate': '0.2' });
  await form.getByRole('button', { name: 'Start fleet' }).click();
  await expect(main.getByTestId('fleet-status')).toHaveText('playing');
  await expect(form.getByRole('button', { name: 'Start fleet' })).toBeDisabled();
  const played = main.getByRole('progressbar', { name: 'Fleet time played' });
  const now = async () => Number(await played.getAttribute('aria-valuenow'));
  const first = await now();
  await expect.poll(now, { timeout: 10_000 }).toBeGreaterThan(first + 5_000);
  const states = main.getByRole('list', { name: 'Players by state' });
  await expect(states.locator('li[data-state="PLAYING"] strong')).not.toHaveText('0', { timeout: 10_000 });
  const charts = main.getByTestId('fleet-charts');
  await expect(charts.getByRole('img', { name: /^Requests per second: requests [1-9]/ })).toBeVisible({
    timeout: 10_000,
  });
  await expect(charts.getByRole('img', { name: /^Players by state: IDLE/ })).toBeVisible();
  // A line with more than one point is drawn.
  await expect
    .poll(async () => (await charts.locator('polyline').first().getAttribute('points'))!.split(' ').length)
    .toBeGreaterThan(1);
  await shoot(page, 'live');
  await main.getByRole('button', { name: 'Stop' }).click();
  await expect(main.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  const stoppedId = (await main.getByRole('heading', { name: /^Fleet fleet-/ }).textContent())!.match(
    /fleet-[0-9a-f]+/,
  )![0];
  await expectStoppedAsListed(main, served.ready, stoppedId);
  const stoppedAt = await now();
  expect(stoppedAt).toBeLessThan(600_000);

  // A short fleet (20 players, 20 s at speed 10: two seconds), let to end.
  await fill(page, { 'Duration (s)': '20' });
  await form.getByLabel('Thresholds', { exact: true }).fill('p99<5s\nerrors<50%\nviolations==0\nrequests<5');
  // Started from the command palette, as its button would.
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await palette.getByRole('combobox').fill('Start a fleet');
  await expect(palette.getByRole('option', { selected: true })).toContainText('Start a fleet');
  await page.keyboard.press('Enter');
  await expect(palette).toHaveCount(0);
  // Ended with a threshold failed: the heading says what the list's badge says.
  await expect(main.getByTestId('fleet-status')).toHaveText('failed', { timeout: 15_000 });
  const id = (await main.getByRole('heading', { name: /^Fleet fleet-/ }).textContent())!.match(/fleet-[0-9a-f]+/)![0];
  const report = await adminApi<FleetReport>(served.ready, 'GET', `/fleets/${id}`);
  expect(report.status).toBe('finished');
  expect(report.options.players).toBe(20);
  expect(report.totals.requests).toBeGreaterThan(20);

  // The summary: the one threshold that cannot hold failed, the others passed, as the engine judged.
  await expect(main.getByRole('heading', { name: 'Summary: 1 of 4 thresholds failed' })).toBeVisible();
  const thresholds = main.getByRole('table', { name: 'Thresholds' });
  for (const t of report.thresholds)
    await expect(
      thresholds.getByRole('row', { name: new RegExp(`^${t.expression.replace(/[()]/g, '\\$&')} `) }),
    ).toContainText(t.ok ? 'passed' : 'failed');
  await expect(thresholds.getByRole('row', { name: /^requests<5 / })).toContainText('failed');
  await expect(main.getByLabel('Fleet totals')).toContainText(report.totals.requests.toLocaleString('en-US'));
  await expect(main.getByText('No contract violations.')).toBeVisible();
  const endpoints = main.getByRole('table', { name: 'Requests and latency by endpoint' });
  await expect(endpoints.getByRole('row', { name: /itemWindow/ }).first()).toBeVisible();
  await expect(main.getByText(report.timeNote!)).toBeVisible();

  await shoot(page, 'summary');

  // The JUnit report: one test case per threshold.
  const downloading = page.waitForEvent('download');
  await main.getByRole('group', { name: 'Download the report' }).getByRole('button', { name: 'JUnit XML' }).click();
  const download = await downloading;
  const path = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(path);
  const xml = await readFile(path, 'utf8');
  expect(xml.match(/<testcase /g)).toHaveLength(4);
  expect(xml).toContain('requests&lt;5');

  // A fleet whose server answers itemWindow with a body that is not JSON: the violation is counted
  // by rule, and its sample opens in the Traffic area.
  const { id: broken } = await adminApi<{ id: string }>(served.ready, 'POST', '/fleets', {
    players: 3,
    durationMs: 5_000,
    speed: 10,
    faults: [
      {
        rule: {
          target: 'cloudQueue',
          match: { path: '/itemWindow' },
          action: { type: 'malformed' },
          label: 'bad body',
        },
      },
    ],
  });
  await page.evaluate((fleet) => (window.location.hash = `#/fleet?fleet=${fleet}`), broken);
  await expect(main.getByTestId('fleet-status')).toHaveText('finished', { timeout: 15_000 });
  const [violation] = (await adminApi<FleetReport>(served.ready, 'GET', `/fleets/${broken}`)).violations;
  expect(violation?.rule).toBe('itemWindow.json');
  const row = main.getByRole('table', { name: 'Violations by rule' }).getByRole('row', { name: /itemWindow\.json/ });
  await expect(row).toContainText(String(violation!.count));
  await row
    .getByRole('link', { name: `Traffic entry ${violation!.sample.trafficId}, a sample of itemWindow.json` })
    .click();
  await expect(consolePage.area('Traffic')).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveURL(new RegExp(`entry=${violation!.sample.trafficId}`));
  await expect(
    main.getByRole('listbox', { name: 'Traffic entries' }).locator('[role="option"][aria-selected="true"]'),
  ).toHaveCount(1);
});

test('a one-minute outage is one row that survives a reload; a fault injected live fails the fleet until removed', async ({
  consolePage,
  served,
  page,
}) => {
  test.setTimeout(60_000);
  await page.keyboard.press('8');
  await expect(consolePage.area('Fleet')).toHaveAttribute('aria-current', 'page');
  const main = page.getByRole('main');
  const form = main.getByRole('form', { name: 'Start a fleet' });
  const faults = form.getByRole('group', { name: 'Faults' });

  // The outage is one click, its row kept as typed across a reload (the form is remembered).
  await faults.getByRole('button', { name: 'Add a one-minute outage' }).click();
  await expect(faults.getByRole('combobox', { name: 'Fault 1' })).toHaveValue('503-storm');
  await fill(page, { Players: '10', 'Duration (s)': '600', 'Ramp (s)': '0', Speed: '10' });
  await faults.getByRole('textbox', { name: 'Fault 1 From (s)' }).fill('900');
  await form.getByRole('button', { name: 'Start fleet' }).click();
  await expect(faults.getByText('Start must be before the fleet ends.')).toBeVisible();
  await expect(faults.getByRole('textbox', { name: 'Fault 1 From (s)' })).toBeFocused();
  await faults.getByRole('textbox', { name: 'Fault 1 From (s)' }).fill('400');
  await page.reload();
  await page.keyboard.press('8');
  await expect(faults.getByRole('textbox', { name: 'Fault 1 From (s)' })).toHaveValue('400');
  await expect(faults.getByRole('textbox', { name: 'Fault 1 For (s)' })).toHaveValue('60');
  await expect(form.getByLabel('Players', { exact: true })).toHaveValue('10');

  // Started: the fleet carries the timed rule, in engine ms (40 s of wall time away: the live rule below
  // is not in its shadow, since the first rule that matches takes a request).
  await form.getByRole('button', { name: 'Start fleet' }).click();
  await expect(main.getByTestId('fleet-status')).toHaveText('playing');
  const id = (await main.getByRole('heading', { name: /^Fleet fleet-/ }).textContent())!.match(/fleet-[0-9a-f]+/)![0];
  const started = await adminApi<FleetReport>(served.ready, 'GET', `/fleets/${id}`);
  expect(started.options.faults).toEqual([expect.objectContaining({ startMs: 400_000, durationMs: 60_000 })]);

  // Live: a 503 storm in the players' client; its hits and the fleet's errors climb; removed, it is gone.
  const live = main.getByRole('heading', { name: 'Inject a fault now' }).locator('..');
  // The fleet's own outage is said beside it, due at its time.
  await expect(live.getByRole('list', { name: 'The fleet’s own timed faults' })).toContainText('from 400 s, for 60 s');
  await live.getByLabel('Fault to inject').selectOption('503-storm');
  await live.getByRole('button', { name: 'Inject' }).click();
  const rules = live.getByRole('list', { name: 'Faults in the players’ client' });
  const injected = rules.getByRole('listitem').filter({ hasText: '503 storm' }).filter({ hasNotText: 'fleet, from' });
  await expect(injected).toBeVisible();
  await expect(injected).not.toContainText(/^503 storm\s*0 hits/, { timeout: 15_000 });
  await expect
    .poll(async () => (await adminApi<FleetReport>(served.ready, 'GET', `/fleets/${id}`)).totals.errors, {
      timeout: 15_000,
    })
    .toBeGreaterThan(0);
  await injected.getByRole('button', { name: /^Remove / }).click();
  await expect(injected).toHaveCount(0);
  await main.getByRole('button', { name: 'Stop' }).click();
  await expectStoppedAsListed(main, served.ready, id);
  await expect(main.getByRole('heading', { name: 'Inject a fault now' })).toHaveCount(0);
});

test('a fleet started elsewhere shows as it plays; the kept fleets list each one, and the keys move between them', async ({
  consolePage,
  served,
  page,
}) => {
  test.setTimeout(40_000);
  // Two fleets started over the admin API, as a script or CI would: a short one that ends, then a long one.
  const start = (body: object) => adminApi<{ id: string }>(served.ready, 'POST', '/fleets', body);
  const { id: ended } = await start({ players: 2, durationMs: 2_000, speed: 10, thresholds: ['errors<1%'] });
  await expect
    .poll(async () => (await adminApi<FleetReport>(served.ready, 'GET', `/fleets/${ended}`)).status, {
      timeout: 15_000,
    })
    .toBe('finished');
  const { id: playing } = await start({ players: 5, durationMs: 600_000, speed: 1 });
  try {
    await consolePage.waitUntilLive();
    await page.keyboard.press('8');
    const main = page.getByRole('main');
    // The area opens on the fleet playing, though it was not started here.
    await expect(main.getByRole('heading', { name: `Fleet ${playing} playing` })).toBeVisible();
    await expect(main.getByRole('form', { name: 'Start a fleet' }).getByText('A fleet is playing.')).toBeVisible();
    const kept = main.getByRole('listbox', { name: 'Kept fleets' });
    const option = (id: string) => kept.locator(`[role="option"][data-fleet-id="${id}"]`);
    await expect(option(playing)).toHaveAttribute('aria-selected', 'true');
    await expect(option(playing)).toContainText('playing');
    await expect(option(playing)).toContainText('5 players');
    await expect(option(ended)).toContainText('passed');
    // Newest first: the one playing above the one that ended.
    const ids = await kept.locator('[role="option"]').evaluateAll((rows) => rows.map((row) => row.dataset.fleetId));
    expect(ids.indexOf(playing)).toBeLessThan(ids.indexOf(ended));

    // One Tab stop; ↓ shows the next fleet down, by its address.
    await option(playing).focus();
    for (let i = ids.indexOf(playing); i < ids.indexOf(ended); i++) await page.keyboard.press('ArrowDown');
    await expect(option(ended)).toBeFocused();
    await expect(option(ended)).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveURL(new RegExp(`fleet=${ended}`));
    // The heading says the list's word for an ended fleet (passed), not two words for one fleet.
    await expect(main.getByRole('heading', { name: `Fleet ${ended} passed` })).toBeVisible();

    // Stopped over the API: its row says so without a reload.
    await adminApi(served.ready, 'DELETE', `/fleets/${playing}`);
    await expect(option(playing)).toContainText('stopped');
    await expect(main.getByRole('form', { name: 'Start a fleet' }).getByText('A fleet is playing.')).toHaveCount(0);
  } finally {
    await adminApi(served.ready, 'DELETE', `/fleets/${playing}`).catch(() => undefined);
  }
});
