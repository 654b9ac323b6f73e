/**
 * The traffic log in Chromium: it fills live as requests happen, its filters narrow it,
 * an entry shows its secrets masked until revealed, a player request links to the transition it
 * caused, the filtered set downloads as HAR and as a repro bundle that imports and replays, and
 * the list stays light with 100,000 entries in it.
 */
import autocannon from 'autocannon';
import harValidator from 'har-validator';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { QueueSummary } from '../main/engine/api/queue-types';
import type { TrafficSummary } from '../main/engine/api/traffic-types';
import { expect, test } from './fixtures';
import { pastConfirmGuard } from './pages/console-page';
import { adminApi, controlApi } from './admin-api';
import { openNewEntry, TrafficPage } from './pages/traffic-page';
import { addPlayer } from './players';

const tag = () => `t${randomBytes(4).toString('hex')}`;

test.describe('the traffic log', () => {
  test('fills live as requests happen, and its filters narrow it', async ({ consolePage, page, served }) => {
    const { urls } = served.ready;
    await adminApi(served.ready, 'DELETE', '/traffic');
    await consolePage.waitUntilLive();
    const traffic = new TrafficPage(page);
    await traffic.open();
    const marker = tag();
    await traffic.search(marker);
    await traffic.expectCount(0);

    // Nothing is reloaded: each request shows up on its own.
    await fetch(`${urls.cloudQueue}/queues/${marker}/v2.3/itemWindow?reason=load`);
    await traffic.expectCount(1);
    await expect(traffic.rows).toHaveCount(1);
    await expect(traffic.rows.first()).toContainText(`/queues/${marker}/v2.3/itemWindow`);
    await expect(traffic.rows.first()).toContainText('404');
    await fetch(`${urls.cloudQueue}/queues/${marker}/v2.3/itemWindow?reason=refresh`);
    await fetch(`${urls.cloudQueue}/queues/${marker}/v2.3/itemWindow?reason=refresh`);
    await fetch(`${urls.control}/api/v1/households?${marker}`);
    await traffic.expectCount(4);

    await traffic.filterTarget('cloudQueue');
    await traffic.expectCount(3);
    await traffic.filterReason('refresh');
    await traffic.expectCount(2);
    await traffic.filterReason('');
    await traffic.filterTarget('');
    await traffic.filterStatus('401');
    await traffic.expectCount(1);
    await expect(traffic.rows.first()).toContainText('/api/v1/households');
    await traffic.filterStatus('4xx');
    await traffic.expectCount(4);
    await traffic.filterStatus('2xx');
    await traffic.expectCount(0);
    await traffic.filterStatus('40');
    await expect(page.getByRole('alert')).toHaveText(
      'Status filter not applied: a status (503), a class (2xx, 4xx, 5xx) or none (incomplete)',
    );
    // Said in a line of its own under the toolbar, covering nothing, also where the toolbar wraps.
    await traffic.expectStatusErrorClearOfSettings();
    await page.setViewportSize({ width: 1024, height: 700 });
    await traffic.expectStatusErrorClearOfSettings();
    await page.setViewportSize({ width: 1360, height: 820 });
    await traffic.filterStatus('');
    await traffic.expectCount(4);

    // `/` goes to the text filter from anywhere on the page.
    await traffic.list.focus();
    await page.keyboard.press('/');
    await expect(page.getByLabel('Search traffic')).toBeFocused();
  });

  test('a search typed just before leaving the area is applied there, not lost', async ({
    consolePage,
    page,
    served,
  }) => {
    await consolePage.waitUntilLive();
    const traffic = new TrafficPage(page);
    await traffic.open();
    const marker = tag();
    // No Enter and no pause: the area changes before the typing delay (250 ms) is up.
    await page.getByLabel('Search traffic').fill(marker);
    await consolePage.area('Queues').click();
    await traffic.open();
    await expect(page.getByLabel('Search traffic')).toHaveValue(marker);
    await traffic.expectCount(0);
    await fetch(`${served.ready.urls.cloudQueue}/queues/${marker}/v2.3/itemWindow?reason=load`);
    await traffic.expectCount(1);
  });

  test('keeps every column in view at 1024×700: the open entry goes below the list, not beside it', async ({
    consolePage,
    served,
  }) => {
    const traffic = await openNewEntry(consolePage, served.ready.urls.cloudQueue, { width: 1024, height: 700 });
    const list = (await traffic.list.boundingBox())!;
    await traffic.expectLastColumnsInList();
    await expect(traffic.rows.first().getByTestId('traffic-status')).toHaveText('404');
    const detail = (await traffic.detail.boundingBox())!;
    expect(detail.y).toBeGreaterThanOrEqual(list.y + list.height);
  });

  test('at 1440×900 the open entry sits beside the list, which leaves out only its wall time (audit-ui W9)', async ({
    consolePage,
    page,
    served,
  }) => {
    const traffic = await openNewEntry(consolePage, served.ready.urls.cloudQueue, { width: 1440, height: 900 });
    const list = (await traffic.list.boundingBox())!;
    const detail = (await traffic.detail.boundingBox())!;
    expect(detail.x).toBeGreaterThanOrEqual(list.x + list.width);
    expect(detail.width).toBeGreaterThanOrEqual(280);
    await traffic.expectLastColumnsInList();
    // The wall time is the entry's to show, not the list's.
    await expect(traffic.list.getByText('Wall time')).toBeHidden();
    await expect(traffic.detail.getByText('Wall time')).toBeVisible();
    // The splitter gives the entry what the narrower list leaves: End widens it to the list's least.
    const splitter = page.getByRole('separator', { name: 'Resize the entry details' });
    await splitter.focus();
    await page.keyboard.press('End');
    const widened = (await traffic.detail.boundingBox())!;
    expect(widened.width).toBeGreaterThanOrEqual(detail.width);
    expect(widened.width).toBeGreaterThan(380);
    await traffic.expectLastColumnsInList();
    await page.keyboard.press('Home');
  });

  test('clears the log only on a second press', async ({ consolePage, page, served }) => {
    await consolePage.waitUntilLive();
    const traffic = new TrafficPage(page);
    await traffic.open();
    // Filtered to this test's own request: players of earlier tests may still be adding entries.
    const marker = tag();
    await fetch(`${served.ready.urls.cloudQueue}/queues/${marker}/v2.3/version`);
    await traffic.search(marker);
    await traffic.expectCount(1);
    // A held Enter: its first press arms, and its repeats, however late, decide nothing.
    await page.getByRole('button', { name: 'Clear log' }).focus();
    await page.keyboard.down('Enter');
    const confirm = page.getByRole('button', { name: 'Confirm: delete every entry' });
    await expect(confirm).toBeVisible();
    await pastConfirmGuard(page); // as a key's repeat delay is
    await page.keyboard.down('Enter'); // held: a repeat
    await page.keyboard.up('Enter');
    await expect(confirm).toBeVisible();
    await traffic.expectCount(1);
    await pastConfirmGuard(page);
    await confirm.click();
    await traffic.expectCount(0);
    await expect(page.getByRole('button', { name: 'Clear log' })).toBeVisible();
  });

  test('opens an entry by keyboard, masks its secrets and reveals them', async ({ consolePage, page, served }) => {
    await consolePage.waitUntilLive();
    const queue = await adminApi<QueueSummary>(served.ready, 'POST', '/queues', {
      name: tag(),
      items: [{ track: { name: 'One', mediaUrl: 'https://example.com/1.mp3' } }],
    });
    const traffic = new TrafficPage(page);
    await traffic.open();
    await traffic.search(queue.id);
    await traffic.filterTarget('cloudQueue');
    await fetch(`${queue.queueBaseUrl}itemWindow?reason=load&upcomingWindowSize=1`, {
      headers: { authorization: queue.httpAuthorization },
    });
    await traffic.expectCount(1);

    await traffic.list.focus();
    await page.keyboard.press('ArrowDown');
    await expect(traffic.rows.first()).toHaveAttribute('data-active', 'true');
    await page.keyboard.press('Enter');
    await expect(traffic.rows.first()).toHaveAttribute('aria-selected', 'true');
    const request = traffic.detail.getByRole('region', { name: 'Request' });
    await expect(request).toContainText(`Bearer ${queue.accessToken.slice(0, 4)}•••`);
    await expect(request).not.toContainText(queue.accessToken);
    // The response body, JSON pretty-printed.
    await expect(traffic.detail.getByLabel('Response body')).toContainText('"items": [');

    const reveal = traffic.detail.getByRole('button', { name: 'Reveal secrets' });
    await reveal.click();
    await expect(reveal).toHaveAttribute('aria-pressed', 'true');
    await expect(request).toContainText(queue.httpAuthorization);
    await reveal.click();
    await expect(reveal).toHaveAttribute('aria-pressed', 'false');
    await expect(request).not.toContainText(queue.accessToken);
  });

  test("shows a form body's fields decoded beside the body as sent, a mask as it reads (audit-ui W10)", async ({
    consolePage,
    page,
    served,
  }) => {
    await consolePage.waitUntilLive();
    const traffic = new TrafficPage(page);
    await traffic.open();
    const marker = tag();
    // The marker in the address: the body's code and secret are masked, so no search finds them.
    await fetch(`${served.ready.urls.login}/login/v3/oauth/access?${marker}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=authorization_code&code=${marker}&client_id=app&client_secret=secret-${marker}-0123456789`,
    });
    await traffic.search(marker);
    await traffic.expectCount(1);
    await traffic.openFirst();
    const request = traffic.detail.getByRole('region', { name: 'Request' });
    // As sent and stored: still a form, the mask percent-encoded.
    await expect(request.getByLabel('Request body')).toContainText('client_secret=secr%E2%80%A2%E2%80%A2%E2%80%A2');
    const fields = request.getByRole('table', { name: 'Form fields, decoded' });
    await expect(fields.getByRole('row', { name: /client_secret/ })).toContainText('secr•••');
    await expect(fields.getByRole('row', { name: /^code/ })).toContainText(`${marker.slice(0, 4)}•••`);
    await expect(request).not.toContainText(`secret-${marker}-0123456789`);
  });

  test('leaves the console’s own calls out of the log, and logs a script that claims to be the console', async ({
    consolePage,
    page,
    served,
  }) => {
    const { ready } = served;
    await consolePage.waitUntilLive();
    await adminApi(ready, 'DELETE', '/traffic');
    // The UI's own admin calls, as a user's visit to two areas makes them.
    await consolePage.area('Queues').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Queues' })).toBeVisible();
    const traffic = new TrafficPage(page);
    await traffic.open();
    // A script sending the UI's header, without the key the page came with.
    await fetch(`${ready.urls.console}/admin/api/commands/clock.get`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ready.adminToken}`,
        'content-type': 'application/json',
        'x-console-ui': '1',
        'x-request-id': 'claims-to-be-ui',
      },
      body: '{}',
    });
    await traffic.filterTarget('console');
    await traffic.expectCount(1);
    await traffic.openFirst();
    await expect(traffic.detail.getByRole('region', { name: 'Request' })).toContainText('claims-to-be-ui');
  });

  test('shows the byte budget beside the entry cap, and says where capture cut an entry', async ({
    consolePage,
    page,
    served,
  }) => {
    const { ready } = served;
    await consolePage.waitUntilLive();
    const traffic = new TrafficPage(page);
    await traffic.open();
    await expect(traffic.budget).toHaveValue('256');
    await traffic.setBudget(64);
    await expect
      .poll(async () => (await adminApi<{ retentionBytes: number }>(ready, 'GET', '/traffic/settings')).retentionBytes)
      .toBe(64 * 1024 * 1024);
    await traffic.setBudget(8);
    await expect(page.getByRole('alert')).toHaveText('keep 16 to 1,048,576 MB');
    await traffic.setBudget(256);
    await expect
      .poll(async () => (await adminApi<{ retentionBytes: number }>(ready, 'GET', '/traffic/settings')).retentionBytes)
      .toBe(256 * 1024 * 1024);

    const marker = tag();
    await fetch(`${ready.urls.cloudQueue}/queues/${marker}/v2.3/version`, {
      headers: { 'x-junk': 'j'.repeat(15_000) },
    });
    await traffic.search(marker);
    await traffic.expectCount(1);
    await traffic.openFirst();
    await expect(traffic.detail.getByRole('region', { name: 'Request' })).toContainText(
      /Headers cut at 1(\.\d)? KiB of 15(\.\d)? KiB/,
    );
  });

  test('links a player request to the transition it caused, on the Player page', async ({
    consolePage,
    page,
    served,
  }) => {
    await consolePage.waitUntilLive();
    const queue = await adminApi<QueueSummary>(served.ready, 'POST', '/queues', {
      name: tag(),
      items: [{ track: { name: 'One', mediaUrl: 'https://example.com/1.mp3', durationMillis: 200_000 } }],
    });
    // A player of its own: another spec on this worker's console may have played on any other.
    const player = await addPlayer(served.ready, 'Traffic Room');
    const session = await controlApi(served.ready, `/api/v1/groups/${player.groupId}/playbackSession:1`, {
      appId: 'com.example.e2e',
      appContext: 'traffic',
    });
    const sessionId = (session.body as { sessionId: string }).sessionId;
    const load = await controlApi(
      served.ready,
      `/api/v1/playbackSessions/${sessionId}/playbackSession:1/loadCloudQueue`,
      {
        queueBaseUrl: queue.queueBaseUrl,
        httpAuthorization: queue.httpAuthorization,
        playOnCompletion: true,
      },
    );
    expect(load.status).toBe(200);

    const traffic = new TrafficPage(page);
    await traffic.open();
    await traffic.filterTarget('player');
    await traffic.filterReason('load');
    await traffic.search(queue.id);
    await traffic.expectCount(1);
    await traffic.openFirst();
    const link = traffic.detail.getByRole('link', { name: /IDLE → BUFFERING load-answered-plays/ });
    await expect(link).toBeVisible();
    const seq = /transition=(\d+)/.exec((await link.getAttribute('href'))!)![1];

    await link.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Player' })).toBeVisible();
    await expect(page.getByRole('tab', { name: new RegExp(`^${player.name}`) })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const row = page.locator(`#transition-${seq}`);
    await expect(row).toHaveAttribute('aria-current', 'true');
    await expect(row).toHaveAttribute('data-transition', 'load-answered-plays');
    await expect(row).toBeInViewport();

    // Back to the log: its filters and the open entry are as they were left.
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: 'Traffic' })).toBeVisible();
    await expect(page.getByLabel('Target', { exact: true })).toHaveValue('player');
    await expect(page.getByLabel('Reason', { exact: true })).toHaveValue('load');
    await expect(page.getByLabel('Search traffic')).toHaveValue(queue.id);
    await traffic.expectCount(1);
    await expect(traffic.rows.first()).toHaveAttribute('aria-selected', 'true');
    await expect(traffic.detail.getByRole('link', { name: /IDLE → BUFFERING load-answered-plays/ })).toBeVisible();

    // And the other way: from the transition to its request, as the player sent it and as the server got it.
    await link.click();
    await page
      .getByRole('link', { name: /^The request behind load-answered-plays at [\d:.]+ in the traffic log$/ })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Traffic' })).toBeVisible();
    // The address names the request and the entry opened for it: a reload or a copied link opens the same.
    await expect(page).toHaveURL(/#\/traffic\?request=[\w-]+&entry=\d+$/);
    await expect(page.getByRole('group', { name: 'Filters' })).toContainText('request');
    await traffic.expectCount(2);
    // A row is named by what it shows (times, target, method, path, reason, status, latency).
    await expect(traffic.list.locator('[aria-selected="true"]')).toHaveAccessibleName(
      / player .+ GET \S+ ?itemWindow load 200 /,
    );
    await expect(traffic.detail.getByRole('link', { name: /IDLE → BUFFERING load-answered-plays/ })).toBeVisible();
    await page.getByRole('button', { name: 'Show every request' }).click();
    await expect(page.getByRole('button', { name: 'Show every request' })).toBeHidden();
    await expect.poll(async () => Number(await traffic.count.getAttribute('data-total'))).toBeGreaterThan(2);
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: 'Player' })).toBeVisible();
    await page.goForward();
    await expect(page.getByRole('heading', { level: 1, name: 'Traffic' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Show every request' })).toBeHidden();
  });

  test('exports the filtered set as a HAR file, and a repro bundle that imports and replays', async ({
    consolePage,
    page,
    served,
  }, testInfo) => {
    const { urls } = served.ready;
    await consolePage.waitUntilLive();
    const traffic = new TrafficPage(page);
    await traffic.open();
    const marker = tag();
    await traffic.search(marker);
    for (const reason of ['load', 'refresh'])
      await fetch(`${urls.cloudQueue}/queues/${marker}/v2.3/itemWindow?reason=${reason}`);
    await traffic.expectCount(2);

    const harDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export HAR' }).click();
    const har = JSON.parse(await readFile(await (await harDownload).path(), 'utf8'));
    await expect(harValidator.har(har)).resolves.toBeTruthy();
    expect(har.log.entries.map((e: { request: { url: string } }) => new URL(e.request.url).search)).toEqual([
      '?reason=load',
      '?reason=refresh',
    ]);

    const bundleDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export repro bundle' }).click();
    const download = await bundleDownload;
    expect(download.suggestedFilename()).toMatch(/^repro-.*\.bundle\.json$/);
    const file = testInfo.outputPath('repro.bundle.json');
    await download.saveAs(file);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      format: 'cloud-queue-console/repro-bundle',
      har: { log: { entries: [{}, {}] } },
    });

    await page.getByLabel('Import bundle…').setInputFiles(file);
    const imported = page.getByRole('region', { name: 'Imported bundle' });
    await expect(imported).toContainText(/Scenario .*\(\d+ steps\)/);
    await imported.getByRole('button', { name: 'Run scenario' }).click();
    // Two requests no player made hold nothing to reproduce: the run is refused, never a PASS that
    // says nothing (as `run FILE` refuses the file).
    await expect(imported.getByRole('alert')).toContainText(
      /checks nothing: none of its \d+ steps is an expectation or a call whose answer is checked/,
    );
    await expect(imported.getByRole('status')).toHaveCount(0);
  });

  test('refuses a file that is not a bundle, and says why', async ({ consolePage, page }, testInfo) => {
    await consolePage.waitUntilLive();
    const traffic = new TrafficPage(page);
    await traffic.open();
    const file = testInfo.outputPath('not-a-bundle.json');
    await (await import('node:fs/promises')).writeFile(file, JSON.stringify({ log: { entries: [] } }));
    await page.getByLabel('Import bundle…').setInputFiles(file);
    await expect(page.getByRole('alert')).toContainText(
      'The bundle was not imported, nothing changed: not a repro bundle',
    );
  });

  test('stays light with 100,000 entries: few rows in the page, and the end shows the newest', async ({
    consolePage,
    page,
    served,
  }) => {
    test.setTimeout(240_000);
    const { urls } = served.ready;
    await adminApi(served.ready, 'PATCH', '/traffic/settings', { retention: 200_000 });
    await consolePage.waitUntilLive();
    const traffic = new TrafficPage(page);
    await traffic.open();
    const marker = tag();
    await traffic.search(marker);

    // 100,000 real requests to the cloud queue listener, bounded, on loopback.
    const result = await autocannon({
      url: `${urls.cloudQueue}/queues/${marker}/v2.3/itemWindow?reason=refresh`,
      connections: 10,
      amount: 100_000,
    });
    expect(result.errors).toBe(0);
    await traffic.expectCount(100_000, 30_000);
    expect(await traffic.list.getByRole('option').count()).toBeLessThan(80);

    const { rows } = await adminApi<{ rows: TrafficSummary[] }>(served.ready, 'POST', '/commands/traffic.page', {
      filter: { text: marker },
      offset: 99_999,
      limit: 1,
    });
    await traffic.list.focus();
    await page.keyboard.press('End');
    await expect(traffic.row(rows[0]!.id)).toBeInViewport();
    await expect(traffic.follow).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('Home');
    await expect(traffic.follow).toHaveAttribute('aria-pressed', 'false');
    await expect(traffic.list.locator('[role="option"][data-index="0"]')).toHaveAttribute('data-id', /\d+/);
    expect(await traffic.list.getByRole('option').count()).toBeLessThan(80);

    // Its place is kept across a visit to another area: scrolled to the middle, away, and back.
    const middle = await traffic.list.evaluate((list) => (list.scrollTop = Math.round(list.scrollHeight / 2)));
    const middleRow = traffic.list.locator('[role="option"][data-index="50000"]');
    await expect(middleRow).toBeInViewport();
    await consolePage.area('Player').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Player' })).toBeVisible();
    await traffic.open();
    await expect(middleRow).toBeInViewport();
    expect(Math.abs((await traffic.list.evaluate((list) => list.scrollTop)) - middle)).toBeLessThan(2);
    await adminApi(served.ready, 'PATCH', '/traffic/settings', { retention: 100_000 });
  });
});
