/**
 * The QA journey on one screen: inject a fault from the Player page, send the request
 * it waits for with "Trigger now", and see the request with its fault and the state change it
 * caused, without leaving the Player page; and the Player page never scrolls the document.
 */
import type { Page } from '@playwright/test';
import type { QueueSummary } from '../main/engine/api/queue-types';
import type { PlayerView } from '../main/engine/api/types';
import { adminApi } from './admin-api';
import { expect, test } from './fixtures';
import { PlayerPage } from './pages/player-page';
import { addPlayer, loadOnPlayer } from './players';

const tracks = Array.from({ length: 12 }, (_, i) => ({
  track: { name: `Bench song ${i + 1}`, mediaUrl: `https://media.example/bench/${i + 1}.mp3`, durationMillis: 240_000 },
}));

async function playingPlayer(ready: Parameters<typeof adminApi>[0], name: string): Promise<PlayerView> {
  const queue = await adminApi<QueueSummary>(ready, 'POST', '/queues', {
    name: `Bench mix ${Date.now().toString(36)}`,
    items: tracks,
  });
  const player = await addPlayer(ready, name);
  await loadOnPlayer(ready, player.groupId, queue);
  return player;
}

/** Where the app is: its hash route, without the query. */
const area = (page: Page) => new URL(page.url()).hash.split('?')[0];

test.afterEach(async ({ served }) => {
  await adminApi(served.ready, 'DELETE', '/faults');
});

test('a QA check cycle, inject → trigger → the request with its fault and the state change, stays on the Player page', async ({
  consolePage,
  served,
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const { name } = await playingPlayer(served.ready, 'Bench room');
  await consolePage.waitUntilLive();
  const player = new PlayerPage(page);
  await player.open(name);
  await player.expectState('PLAYING');
  expect(area(page)).toBe('#/player');

  const rule = await player.injectPreset('404 on itemWindow (refresh)');
  await expect(rule).toContainText('0 hits');
  await rule.getByRole('button', { name: /^Trigger now/ }).click();
  await expect(player.faults.getByRole('status', { name: 'Trigger answer' })).toContainText('reason=refresh');

  // The request, folded (the player's side and the server's in one row), with the rule that failed it.
  const failed = player.requests.locator('tbody tr[data-fault]');
  await expect(failed).toHaveCount(1);
  await expect(failed).toHaveAttribute('data-status', '404');
  await expect(failed).toHaveAttribute('data-sides', 'player server');
  await expect(failed).toContainText('404 on itemWindow (refresh)');
  await expect(failed).toContainText('refresh');
  await expect(rule.getByTestId('workbench-rule-hits')).toHaveAttribute('data-hits', '1');

  // The failed ones alone, kept in the address: the reports of a playing player no longer push them out of view.
  await page.getByLabel('Requests shown').selectOption({ label: 'Failed or faulted' });
  await expect(player.requests.locator('tbody tr')).toHaveCount(1);
  await expect(player.requests.locator('tbody tr')).toHaveAttribute('data-status', '404');
  expect(new URL(page.url()).hash).toContain('requests=failed');

  // The state change it caused: on the diagram, and linked from the row to its transition.
  await player.expectState('IDLE');
  const transition = failed.getByRole('link', { name: /^→ IDLE: transition \d+, PLAYING to IDLE$/ });
  await expect(transition).toBeVisible();
  await transition.click();
  await expect(player.timeline.locator('tr[aria-current="true"]')).toContainText('PLAYING → IDLE');
  expect(area(page)).toBe('#/player');
  await expect(page.getByLabel('Requests shown')).toHaveValue('failed');

  // Its traffic entry is one link away (the only link that leaves the page).
  const entry = failed.getByRole('link', { name: /^Traffic entry \d+$/ });
  await expect(entry).toHaveAttribute('href', /#\/traffic\?entry=\d+/);
  expect(area(page)).toBe('#/player');
});

test('the timeline pauses, counts what came since, and keeps a mark', async ({ consolePage, served, page }) => {
  const { name } = await playingPlayer(served.ready, 'Bench pause');
  await consolePage.waitUntilLive();
  const player = new PlayerPage(page);
  await player.open(name);
  await player.expectState('PLAYING');

  await page.getByRole('form', { name: 'Mark the timeline' }).getByLabel('Mark label').fill('before pause');
  await page.getByRole('button', { name: 'Mark', exact: true }).click();
  const mark = page.getByRole('list', { name: 'Marks' }).getByRole('link', { name: /before pause/ });
  await expect(mark).toBeVisible();

  await page.getByRole('region', { name: 'Requests', exact: true }).getByRole('button', { name: 'Pause' }).click();
  const rows = await player.timeline.locator('tbody tr').count();
  await player.button('Pause').click();
  await player.expectState('PAUSED');
  await expect(page.getByRole('button', { name: 'Follow (1 new)' })).toBeVisible();
  await expect(player.timeline.locator('tbody tr')).toHaveCount(rows);

  await page.getByRole('button', { name: 'Follow (1 new)' }).click();
  await expect(player.timeline.locator('tbody tr').first()).toHaveAttribute('data-transition', 'pause');
  await mark.click();
  await expect(player.timeline.locator('tr[aria-current="true"]')).toHaveCount(1);
  expect(area(page)).toBe('#/player');
});

for (const [width, height] of [
  [1440, 900],
  [1024, 768],
] as const) {
  test(`at ${width}×${height} the Player page scrolls inside its area, never the document`, async ({
    consolePage,
    served,
    page,
  }) => {
    await page.setViewportSize({ width, height });
    const { name } = await playingPlayer(served.ready, `Bench ${width}`);
    await consolePage.waitUntilLive();
    const player = new PlayerPage(page);
    await player.open(name);
    await player.expectState('PLAYING');
    await expect(player.requests.locator('tbody tr').first()).toBeVisible();
    const sizes = await page.evaluate(() => ({
      scrollHeight: document.scrollingElement!.scrollHeight,
      innerHeight: window.innerHeight,
    }));
    expect(sizes.scrollHeight).toBeLessThanOrEqual(sizes.innerHeight);
  });
}
