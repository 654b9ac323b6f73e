/**
 * Every area of the console with real content in it, for the specs that judge the whole UI (axe,
 * layout at three widths) and for screenshots: a queue with items selected, a player playing,
 * traffic with one entry open, a flow in the inspector, a fault rule, a conformance run with its
 * results, a small fleet that ended. The scene is set once over the admin API; `show` opens one area and selects in it.
 */
import { expect, type Page } from '@playwright/test';
import type { ConformanceRun } from '../../main/engine/api/conformance-types';
import type { FleetReport } from '../../main/engine/api/fleet-types';
import type { QueueSummary } from '../../main/engine/api/queue-types';
import type { PlayerView } from '../../main/engine/api/types';
import type { ReadyLine } from '../../main/testing/serve-process';
import { adminApi } from '../admin-api';
import { addPlayer, loadOnPlayer } from '../players';

export const AREA_NAMES = ['OAuth', 'Queues', 'Player', 'Traffic', 'Faults', 'API', 'Check a server', 'Fleet'] as const;
export type AreaName = (typeof AREA_NAMES)[number];

export interface Scene {
  queue: QueueSummary;
  player: PlayerView;
  runId: string;
  fleetId: string;
}

const tracks = Array.from({ length: 40 }, (_, i) => ({
  track: {
    name: `Showcase song ${i + 1}`,
    artist: { name: 'The Examples' },
    album: { name: 'Accessible Hits' },
    mediaUrl: `https://media.example/showcase/${i + 1}.mp3`,
    durationMillis: 200_000 + i * 1_000,
  },
}));

/** Sets the scene over the admin API; every step waits for what it made to exist. */
export async function setScene(ready: ReadyLine): Promise<Scene> {
  const stamp = Date.now().toString(36);
  const queue = await adminApi<QueueSummary>(ready, 'POST', '/queues', {
    name: `Showcase mix ${stamp}`,
    items: tracks,
  });
  const player = await addPlayer(ready, 'Showcase room');
  await loadOnPlayer(ready, player.groupId, queue);

  // The sample flow, auto-approved: the authorize URL followed to the callback issues its tokens.
  const settings = await adminApi<{ autoApprove: boolean }>(ready, 'GET', '/settings');
  await adminApi(ready, 'PATCH', '/settings', { autoApprove: true });
  try {
    const flow = await adminApi<{ authorizeUrl: string }>(ready, 'POST', '/oauth/sample', {});
    expect((await fetch(flow.authorizeUrl)).status).toBe(200);
  } finally {
    await adminApi(ready, 'PATCH', '/settings', { autoApprove: settings.autoApprove });
  }

  // A rule that matches no request the scene makes, so it shows without changing what plays.
  await adminApi(ready, 'POST', '/faults', {
    target: 'cloudQueue',
    match: { path: '/showcase/never' },
    action: { type: 'status', status: 503, retryAfter: 5 },
    label: 'showcase rule',
  });

  const { id: runId } = await adminApi<{ id: string }>(ready, 'POST', '/conformance/runs', {
    baseUrl: queue.queueBaseUrl,
    authorization: `Bearer ${queue.accessToken}`,
  });
  await expect
    .poll(async () => (await adminApi<ConformanceRun>(ready, 'GET', `/conformance/runs/${runId}`)).status, {
      timeout: 30_000,
    })
    .not.toBe('running');

  // A small fleet on the reference server, ended: its charts, figures and thresholds show.
  const { id: fleetId } = await adminApi<{ id: string }>(ready, 'POST', '/fleets', {
    players: 5,
    durationMs: 10_000,
    rampMs: 1_000,
    speed: 10,
    thresholds: ['p99<250ms', 'errors<1%', 'violations==0'],
  });
  await expect
    .poll(async () => (await adminApi<FleetReport>(ready, 'GET', `/fleets/${fleetId}`)).status, { timeout: 30_000 })
    .not.toBe('running');
  return { queue, player, runId, fleetId };
}

/** Opens an area from the sidebar and selects in it, waiting for the content to show. */
export async function show(page: Page, scene: Scene, area: AreaName): Promise<void> {
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('button', { name: area }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(area === 'API' ? 'Admin API' : area);
  const main = page.getByRole('main');
  switch (area) {
    case 'OAuth':
      await expect(main.getByRole('list', { name: 'Timeline' }).getByRole('listitem').first()).toBeVisible();
      break;
    case 'Queues': {
      await main
        .getByRole('complementary', { name: 'Queues' })
        .getByRole('button', { name: new RegExp(`^${scene.queue.name}`) })
        .click();
      // The scene's queue's own editor: rows clicked in the one open before it were lost with it (CI).
      const items = main
        .getByRole('region', { name: `Queue ${scene.queue.name}` })
        .getByRole('listbox', { name: 'Queue items' });
      // The gesture again until it holds: the editor may still render its queue afresh (its items
      // loaded, a player's live update) between the two clicks, and the selection went with it (CI).
      await expect(async () => {
        await items.locator('[role="option"][data-index="1"]').click();
        await items.locator('[role="option"][data-index="3"]').click({ modifiers: ['Shift'] });
        await expect(items.locator('[role="option"][aria-selected="true"]')).toHaveCount(3, { timeout: 1_000 });
      }).toPass({ timeout: 10_000 });
      break;
    }
    case 'Player':
      await main
        .getByRole('tablist', { name: 'Players' })
        .getByRole('tab', { name: new RegExp(`^${scene.player.name}`) })
        .click();
      await expect(main.getByTestId('player-state')).toHaveText('PLAYING');
      break;
    case 'Traffic': {
      // By keyboard: Home stops following the newest entry, so the rows hold still.
      const list = main.getByRole('listbox', { name: 'Traffic entries' });
      await expect(list.getByRole('option').first()).toBeVisible();
      await list.focus();
      await list.press('Home');
      await list.press('ArrowDown');
      await list.press('ArrowDown');
      await list.press('Enter');
      await expect(list.locator('[role="option"][data-index="2"]')).toHaveAttribute('aria-selected', 'true');
      await expect(
        main.getByRole('complementary', { name: 'Entry details' }).getByRole('heading').first(),
      ).toBeVisible();
      break;
    }
    case 'Faults':
      await expect(
        main
          .getByRole('table', { name: 'Fault rules' })
          .getByRole('row', { name: /showcase rule/ })
          .first(),
      ).toBeVisible();
      break;
    case 'API':
      await main.locator('details').first().locator('summary').click();
      break;
    case 'Check a server': {
      const runs = main.getByRole('listbox', { name: 'Kept runs' });
      await runs.locator(`[role="option"][data-run-id="${scene.runId}"]`).click();
      await expect(main.getByRole('table', { name: 'Results by contract section' })).toBeVisible();
      break;
    }
    case 'Fleet':
      // The fleet the scene played, by its address (the area opens on its form alone).
      await page.evaluate((id) => (window.location.hash = `#/fleet?fleet=${id}`), scene.fleetId);
      await expect(main.getByRole('table', { name: 'Thresholds' })).toBeVisible();
      break;
  }
}
