/**
 * Everything a user selects or filters is in the address: a player, a queue, a filtered traffic
 * view with an entry open, a conformance run each open from their link, loaded directly and again
 * after a reload, with the tab title naming the place. The command palette goes to a request, the
 * `?` sheet lists the shortcuts, and Escape leaves a text field for the area keys.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { Page } from '@playwright/test';
import type { ConformanceRun } from '../main/engine/api/conformance-types';
import type { QueueSummary } from '../main/engine/api/queue-types';
import type { TrafficEntry } from '../main/engine/api/traffic-types';
import { adminApi } from './admin-api';
import { expect, test } from './fixtures';
import { ConformancePage } from './pages/conformance-page';
import { ConsolePage } from './pages/console-page';
import { QueuesPage } from './pages/queues-page';
import { TrafficPage } from './pages/traffic-page';
import { addPlayer } from './players';

const tag = () => `deep-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

/** Loads the console at `hash` as a fresh page (not a hash change in the page already open). */
async function openDirectly(page: Page, consoleUrl: string, hash: string): Promise<void> {
  await page.goto('about:blank');
  await new ConsolePage(page).open(`${consoleUrl}/${hash}`);
}

async function reload(page: Page): Promise<void> {
  await page.reload();
  await new ConsolePage(page).waitUntilLive();
}

/** A loopback port nothing listens on: a run against it fails at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test.describe('deep links', () => {
  test('an address that names no area opens OAuth and says so, until the user goes elsewhere', async ({
    page,
    served,
  }) => {
    await openDirectly(page, served.ready.urls.console, '#/nope');
    await expect(page).toHaveURL(/#\/oauth$/);
    const notice = page.getByRole('status').filter({ hasText: 'No area at' });
    await expect(notice).toHaveText(/No area at #\/nope: OAuth opened instead\./);
    await page
      .getByRole('navigation', { name: 'Console areas' })
      .getByRole('button', { name: /Traffic/ })
      .click();
    await expect(notice).toHaveCount(0);
  });

  test('a player opens from its address, and again after a reload; the tab names it', async ({ page, served }) => {
    const room = await addPlayer(served.ready, 'Deep Room');
    await openDirectly(page, served.ready.urls.console, `#/player?player=${encodeURIComponent(room.id)}`);
    for (const pass of ['loaded', 'reloaded']) {
      await expect(page.getByRole('tab', { name: new RegExp(`^${room.name}`) }), pass).toHaveAttribute(
        'aria-selected',
        'true',
      );
      await expect(page).toHaveTitle(`Player · ${room.name} — Cloud Queue Console`);
      if (pass === 'loaded') await reload(page);
    }
  });

  test('a queue opens from its address, and again after a reload; choosing another writes the address', async ({
    page,
    served,
  }) => {
    const [first, second] = [
      await adminApi<QueueSummary>(served.ready, 'POST', '/queues', { name: tag() }),
      await adminApi<QueueSummary>(served.ready, 'POST', '/queues', { name: tag() }),
    ];
    await openDirectly(page, served.ready.urls.console, `#/queues?queue=${second!.id}`);
    for (const pass of ['loaded', 'reloaded']) {
      await expect(page.getByRole('region', { name: `Queue ${second!.name}` }), pass).toBeVisible();
      await expect(page).toHaveTitle(`Queues · ${second!.name} — Cloud Queue Console`);
      if (pass === 'loaded') await reload(page);
    }
    await new QueuesPage(page).select(first!.name);
    await expect(page).toHaveURL(new RegExp(`#/queues\\?queue=${first!.id}$`));
    await expect(page).toHaveTitle(`Queues · ${first!.name} — Cloud Queue Console`);
  });

  test('a filtered traffic view with an entry open opens from its address and after a reload; a bad value falls back', async ({
    page,
    served,
  }) => {
    const { urls } = served.ready;
    const marker = tag();
    for (const reason of ['load', 'refresh'])
      await fetch(`${urls.cloudQueue}/queues/${marker}/v2.3/itemWindow?reason=${reason}`);
    const entries = await adminApi<TrafficEntry[]>(served.ready, 'GET', `/traffic?text=${marker}`);
    const refresh = entries.find((e) => e.path.includes('itemWindow') && e.reason === 'refresh')!;

    await openDirectly(
      page,
      urls.console,
      `#/traffic?target=cloudQueue&reason=refresh&text=${marker}&entry=${refresh.id}`,
    );
    const traffic = new TrafficPage(page);
    for (const pass of ['loaded', 'reloaded']) {
      await expect(page.getByLabel('Target', { exact: true }), pass).toHaveValue('cloudQueue');
      await expect(page.getByLabel('Reason', { exact: true })).toHaveValue('refresh');
      await expect(page.getByLabel('Search traffic')).toHaveValue(marker);
      await traffic.expectCount(1);
      await expect(traffic.rows.first()).toHaveAttribute('aria-selected', 'true');
      await expect(traffic.rows.first()).toHaveAttribute('data-id', String(refresh.id));
      await expect(traffic.detail).toContainText('reason=refresh');
      await expect(page).toHaveTitle(`Traffic · entry ${refresh.id} — Cloud Queue Console`);
      if (pass === 'loaded') await reload(page);
    }

    // Values the log cannot mean are dropped: the whole log, nothing open, nothing broken.
    await openDirectly(page, urls.console, `#/traffic?target=mars&entry=abc&status=6xx`);
    await expect(page.getByRole('heading', { level: 1, name: 'Traffic' })).toBeVisible();
    await expect(page.getByLabel('Target', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Status', { exact: true })).toHaveValue('');
    await expect(traffic.list.locator('[aria-selected="true"]')).toHaveCount(0);
    await expect(page).toHaveTitle('Traffic — Cloud Queue Console');
  });

  test('a linked entry far from the end of the log opens with its row in view, not the top of the log', async ({
    page,
    served,
  }) => {
    const { urls } = served.ready;
    const marker = tag();
    // Far from both ends (a page of the log is 200 rows): 400 entries before the linked one, 400 after.
    const some = async (name: string) => {
      for (let i = 0; i < 40; i++)
        await Promise.all(Array.from({ length: 10 }, () => fetch(`${urls.cloudQueue}/queues/${name}/v2.3/version`)));
    };
    await some(`${marker}-before`);
    await fetch(`${urls.cloudQueue}/queues/${marker}/v2.3/version`);
    const [linked] = await adminApi<TrafficEntry[]>(served.ready, 'GET', `/traffic?text=${marker}/`);
    await some(`${marker}-after`);
    await openDirectly(page, urls.console, `#/traffic?entry=${linked!.id}`);
    const traffic = new TrafficPage(page);
    const row = traffic.list.locator(`[data-id="${linked!.id}"]`);
    await expect(row).toBeInViewport();
    await expect(row).toHaveAttribute('aria-selected', 'true');
    await expect(traffic.detail).toContainText(marker);
  });

  test('a conformance run opens from its address, not the newest, and again after a reload', async ({
    page,
    served,
  }) => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/queues/${tag()}/v2.3/`;
    const older = await adminApi<{ id: string }>(served.ready, 'POST', '/conformance/runs', { baseUrl });
    await expect
      .poll(async () => (await adminApi<ConformanceRun>(served.ready, 'GET', `/conformance/runs/${older.id}`)).status)
      .toBe('failed');
    const newer = await adminApi<{ id: string }>(served.ready, 'POST', '/conformance/runs', { baseUrl });
    await expect
      .poll(async () => (await adminApi<ConformanceRun>(served.ready, 'GET', `/conformance/runs/${newer.id}`)).status)
      .toBe('failed');

    await openDirectly(page, served.ready.urls.console, `#/conformance?run=${older.id}`);
    const check = new ConformancePage(page);
    for (const pass of ['loaded', 'reloaded']) {
      await expect(check.run, pass).toHaveAttribute('data-run-id', older.id);
      await expect(page).toHaveTitle(
        `Check a server · ${new URL(baseUrl).host}${new URL(baseUrl).pathname} — Cloud Queue Console`,
      );
      if (pass === 'loaded') await reload(page);
    }
  });

  test('the palette goes to a request by its X-Request-Id; the ? sheet lists the shortcuts; Escape leaves a field', async ({
    consolePage,
    page,
    served,
  }) => {
    const requestId = randomUUID();
    const marker = tag();
    await fetch(`${served.ready.urls.cloudQueue}/queues/${marker}/v2.3/itemWindow?reason=load`, {
      headers: { 'x-request-id': requestId },
    });
    const [entry] = await adminApi<TrafficEntry[]>(served.ready, 'GET', `/traffic?requestId=${requestId}`);

    // Ctrl+K from anywhere; Enter on the request's line.
    await consolePage.waitUntilLive();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await expect(palette).toBeVisible();
    await page.keyboard.type(requestId);
    await expect(palette.getByRole('option', { selected: true })).toHaveText(
      new RegExp(`^Show request ${requestId.slice(0, 8)}`),
    );
    await page.keyboard.press('Enter');
    await expect(palette).toBeHidden();
    const traffic = new TrafficPage(page);
    await expect(page).toHaveURL(new RegExp(`#/traffic\\?request=${requestId}&entry=${entry!.id}$`));
    await traffic.expectCount(1);
    await expect(traffic.rows.first()).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveTitle(`Traffic · entry ${entry!.id} — Cloud Queue Console`);

    // Escape leaves the search field with its text; the area keys work again.
    const search = page.getByLabel('Search traffic');
    await search.fill(marker);
    await search.press('Escape');
    await expect(search).not.toBeFocused();
    await expect(search).toHaveValue(marker);
    await page.keyboard.press('2');
    await expect(page.getByRole('heading', { level: 1, name: 'Queues' })).toBeVisible();

    // ? opens the sheet, Escape closes it and the focus goes back.
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(sheet).toBeVisible();
    await expect(sheet.getByRole('row', { name: /Open Traffic/ })).toContainText('4');
    await expect(sheet.getByRole('row', { name: /Command palette/ })).toContainText('Ctrl+K');
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
  });
});
