/**
 * What the traffic log shows can be trusted: coming back to it shows the log as it is
 * now, not as it was left; the open entry never sits beside a list its filter leaves it out of;
 * each entry names its player and links the other side of the same request; and every entry
 * copies as curl and as fetch, its secrets masked unless revealed.
 */
import { randomBytes } from 'node:crypto';
import type { QueueSummary } from '../main/engine/api/queue-types';
import type { TrafficEntry } from '../main/engine/api/traffic-types';
import { expect, test } from './fixtures';
import { adminApi } from './admin-api';
import { openNewEntry, TrafficPage } from './pages/traffic-page';
import { addPlayer, loadOnPlayer } from './players';

const tag = () => `t${randomBytes(4).toString('hex')}`;

test.describe('trusting the traffic log', () => {
  test('coming back to Traffic shows the count and the rows as the log holds them now', async ({
    consolePage,
    page,
    served,
  }) => {
    const { ready } = served;
    await consolePage.waitUntilLive();
    const traffic = new TrafficPage(page);
    await traffic.open();
    const marker = tag();
    await traffic.search(marker);
    await fetch(`${ready.urls.cloudQueue}/queues/${marker}/v2.3/version`);
    await traffic.expectCount(1);

    // Away in another area, three more requests are logged; none arrives after the return.
    await consolePage.area('Queues').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Queues' })).toBeVisible();
    for (const reason of ['load', 'refresh', 'skipNext'])
      await fetch(`${ready.urls.cloudQueue}/queues/${marker}/v2.3/itemWindow?reason=${reason}`);
    await expect
      .poll(async () => (await adminApi<TrafficEntry[]>(ready, 'GET', `/traffic?text=${marker}`)).length)
      .toBe(4);

    await traffic.open();
    await traffic.expectCount(4);
    await expect(traffic.rows).toHaveCount(4);
    await expect(traffic.rows.last()).toContainText('skipNext');
  });

  test('a filter that leaves the open entry out closes it, and the address forgets it', async ({
    consolePage,
    page,
    served,
  }) => {
    const traffic = await openNewEntry(consolePage, served.ready.urls.cloudQueue);
    await expect(traffic.detail.getByRole('heading', { level: 2 })).toContainText('itemWindow');
    await expect(page).toHaveURL(/[?&]entry=\d+/);

    // A filter that keeps it: it stays open.
    await traffic.filterStatus('404');
    await traffic.expectCount(1);
    await expect(traffic.detail.getByRole('heading', { level: 2 })).toContainText('itemWindow');

    // A filter that leaves it out: no "0 entries" beside a 404's detail.
    await traffic.filterStatus('2xx');
    await traffic.expectCount(0);
    await expect(traffic.detail).toContainText('Select an entry');
    await expect(traffic.detail.getByRole('heading', { level: 2 })).toHaveCount(0);
    await expect(page).not.toHaveURL(/[?&]entry=/);
  });

  test('names the player of each entry, and links the player’s side of a request to the server’s', async ({
    consolePage,
    page,
    served,
  }) => {
    const { ready } = served;
    await consolePage.waitUntilLive();
    const queue = await adminApi<QueueSummary>(ready, 'POST', '/queues', {
      name: tag(),
      items: [{ track: { name: 'One', mediaUrl: 'https://example.com/1.mp3', durationMillis: 200_000 } }],
    });
    const player = await addPlayer(ready, 'Trust Room');
    await loadOnPlayer(ready, player.groupId, queue);

    const traffic = new TrafficPage(page);
    await traffic.open();
    await traffic.filterTarget('player');
    await traffic.filterReason('load');
    await traffic.search(queue.id);
    await traffic.expectCount(1);
    await expect(traffic.rows.first().getByTestId('traffic-player')).toHaveText(player.name);
    await traffic.openFirst();
    const pair = traffic.detail.getByRole('link', { name: 'the server’s side' });
    await expect(pair).toBeVisible();
    await pair.click();

    // Both sides of the request, the server's open.
    await expect(page).toHaveURL(/#\/traffic\?request=[\w-]+&entry=\d+$/);
    await traffic.expectCount(2);
    await expect(traffic.detail.getByText('cloudQueue', { exact: true })).toBeVisible();
    await expect(traffic.list.locator('[aria-selected="true"]').getByTestId('traffic-player')).toHaveText(player.name);
    await traffic.detail.getByRole('link', { name: 'the player’s side' }).click();
    await expect(traffic.detail.getByText('player', { exact: true })).toBeVisible();
  });

  test('copies an entry as curl and as fetch, masked until revealed', async ({
    consolePage,
    page,
    served,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: served.ready.urls.console });
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
    await traffic.openFirst();

    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await traffic.detail.getByRole('button', { name: 'Copy as curl' }).click();
    await expect.poll(clipboard).toContain(`curl '${queue.queueBaseUrl}itemWindow?reason=load&upcomingWindowSize=1'`);
    const masked = await clipboard();
    expect(masked).toContain(`-H 'authorization: Bearer ${queue.accessToken.slice(0, 4)}•••'`);
    expect(masked).not.toContain(queue.accessToken);
    // The same text, to read before copying.
    await traffic.detail.getByText('Show as curl').click();
    await expect(traffic.detail.getByLabel('As curl', { exact: true })).toHaveText(masked);

    await traffic.detail.getByRole('button', { name: 'Copy as fetch' }).click();
    await expect
      .poll(clipboard)
      .toContain(`await fetch("${queue.queueBaseUrl}itemWindow?reason=load&upcomingWindowSize=1"`);

    await traffic.detail.getByRole('button', { name: 'Reveal secrets' }).click();
    await expect(traffic.detail.getByRole('button', { name: 'Reveal secrets' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(traffic.detail.getByRole('region', { name: 'Request' })).toContainText(queue.httpAuthorization);
    await traffic.detail.getByRole('button', { name: 'Copy as curl' }).click();
    await expect.poll(clipboard).toContain(`-H 'authorization: ${queue.httpAuthorization}'`);
  });
});
