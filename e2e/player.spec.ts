import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import type { QueueSummary } from '../main/engine/api/queue-types';
import { adminApi } from './admin-api';
import { PlayerPage } from './pages/player-page';
import { addPlayer, loadOnPlayer } from './players';

/** `count` tracks of `durationMillis` each, named `${name} 1`…, for a queue made with the admin API. */
const tracksOf = (name: string, count: number, durationMillis: number) =>
  Array.from({ length: count }, (_, i) => ({
    track: {
      name: `${name} ${i + 1}`,
      mediaUrl: `https://media.example/${name.toLowerCase()}/${i + 1}.mp3`,
      durationMillis,
    },
  }));

test.describe('the player panel in Chromium', () => {
  test('load a queue through the control API, press pause and play, watch the state change', async ({
    consolePage,
    served,
    page,
  }) => {
    const tracks = Array.from({ length: 12 }, (_, i) => ({
      track: { name: `Song ${i + 1}`, mediaUrl: `https://media.example/${i + 1}.mp3`, durationMillis: 240_000 },
    }));
    await adminApi(served.ready, 'POST', '/queues', { name: 'Demo mix', items: tracks });
    // A player of its own: other specs on this worker's console may have left a session on any other.
    const room = await addPlayer(served.ready, 'Panel Room');

    const player = new PlayerPage(page);
    await player.open(room.name);
    await player.expectState('IDLE');
    await player.loadConsoleQueue('Demo mix (12)');
    await player.expectState('PLAYING');
    await expect(page.getByRole('region', { name: 'Now playing' })).toContainText('Song 1');

    await player.button('Pause').click();
    await player.expectState('PAUSED');
    await player.button('Play').click();
    await player.expectState('PLAYING');

    const rows = player.timeline.locator('tbody tr');
    await expect(rows.first()).toHaveAttribute('data-transition', 'play');
    await expect(player.timeline.locator('tr[data-transition="pause"]')).toHaveCount(1);
    await expect(player.timeline.locator('tr[data-transition="load-answered-plays"]')).toHaveCount(1);
    await expect(player.timeline.locator('tr[data-transition="pause"] [data-cause]')).toHaveText('user');

    await player.button('Skip to the next track').click();
    await expect(page.getByRole('list', { name: 'Item window' }).locator('[aria-current="true"]')).toContainText(
      'Song 2',
    );
    await expect(consolePage.engineTime).toBeVisible();

    // Away and back: the command bar keeps its queue and its last answer.
    await consolePage.area('Traffic').click();
    await player.open(room.name);
    await expect(player.commandBar.getByLabel('Console queue').locator('option:checked')).toHaveText('Demo mix (12)');
    await expect(player.answer).toContainText('loadCloudQueue');
    await expect(player.answer.locator('[data-status]')).toHaveText('200');

    // A seek to a position that is none says so beside the field, the text kept (audit).
    const nowPlaying = page.getByRole('region', { name: 'Now playing' });
    const field = nowPlaying.getByRole('textbox', { name: 'Seek to (seconds)' });
    await field.fill('-5');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(
      nowPlaying.getByRole('alert').filter({ hasText: 'Seek to a number of seconds, 0 or more.' }),
    ).toBeVisible();
    await expect(nowPlaying.getByRole('button', { name: 'Seek', exact: true })).toBeDisabled();
    await expect(field).toHaveValue('-5');
    await field.fill('30');
    await expect(field).toHaveAttribute('aria-invalid', 'false');
  });

  test('a track that ends at the window\u2019s edge before the next window came: buffering, said so, then the next track plays', async ({
    consolePage,
    served,
    page,
  }) => {
    const ready = served.ready;
    await consolePage.waitUntilLive();
    await adminApi(ready, 'POST', '/clock', { speed: 0 });
    try {
      // 14 tracks of 5 s: the first window holds 11. The refresh asked at track 9 gets three 503s
      // with Retry-After 10 s (retried 10 s apart), so track 11 ends 15 s before it is answered.
      const items = tracksOf('Short', 14, 5_000);
      const queue = await adminApi<QueueSummary>(ready, 'POST', '/queues', { name: 'Short mix', items });
      await adminApi(ready, 'POST', '/faults', {
        target: 'cloudQueue',
        match: { path: `${new URL(queue.queueBaseUrl).pathname}itemWindow`, reason: 'refresh' },
        action: { type: 'status', status: 503, retryAfter: 10 },
        times: 3,
      });
      const room = await addPlayer(ready, 'Edge Room');
      await loadOnPlayer(ready, room.groupId, queue);
      await adminApi(ready, 'POST', '/clock', { advanceMs: 500 + 55_000 });

      const player = new PlayerPage(page);
      await player.open(room.name);
      await player.expectState('BUFFERING');
      const window = page.getByRole('list', { name: 'Item window' });
      await expect(window.locator('[aria-current="true"]')).toContainText('Short 11');
      // The list keeps the playing item in sight (it holds more than it shows): the list brought
      // into view (it sits under the workbench), its own scroll is the list's doing.
      await window.scrollIntoViewIfNeeded();
      await expect(window.locator('[aria-current="true"]')).toBeInViewport();
      await expect(page.getByText('at the window\u2019s edge: waiting for the next window')).toBeVisible();
      await expect(player.timeline.locator('tbody tr').first()).toHaveAttribute(
        'data-transition',
        'track-ends-window-edge',
      );

      await adminApi(ready, 'POST', '/clock', { advanceMs: 15_000 });
      await player.expectState('PLAYING');
      await expect(window.locator('[aria-current="true"]')).toContainText('Short 12');
      await expect(page.getByText('at the window\u2019s edge: waiting for the next window')).toBeHidden();
      await expect(player.timeline.locator('tr[data-transition^="next-window-plays"]')).toHaveCount(1);
    } finally {
      await adminApi(ready, 'DELETE', '/faults');
      await adminApi(ready, 'POST', '/clock', { speed: 1 });
    }
  });

  test('a player whose reports are refused once its token expired stays PLAYING and shows it is failing', async ({
    consolePage,
    served,
    page,
  }) => {
    const ready = served.ready;
    await consolePage.waitUntilLive();
    await adminApi(ready, 'POST', '/clock', { speed: 0 });
    try {
      // A token of a minute: the first track's end (3 min) posts a report its server answers 401.
      const items = tracksOf('Lapsed', 6, 180_000);
      const queue = await adminApi<QueueSummary>(ready, 'POST', '/queues', {
        name: 'Lapsed token',
        items,
        accessTokenLifetimeSec: 60,
      });
      const room = await addPlayer(ready, 'Lapsed Room');
      await loadOnPlayer(ready, room.groupId, queue);
      await adminApi(ready, 'POST', '/clock', { advanceMs: 1_000 });

      const player = new PlayerPage(page);
      await player.open(room.name);
      await player.expectState('PLAYING');
      const tab = page.getByRole('tab', { name: new RegExp(`^${room.name}`) });
      await expect(tab.getByTestId('player-failing')).toBeHidden();

      await adminApi(ready, 'POST', '/clock', { advanceMs: 200_000 });
      await player.expectState('PLAYING');
      // Its update reports are refused too, each counted in the run.
      await expect(tab).toHaveAccessibleName(/ PLAYING requests failing 401 ×\d+$/);
      const line = page.getByTestId('player-failing-line');
      await expect(line).toContainText(/the last \d+ requests failed; the last, timePlayed at/);
      await expect(line).toContainText('expired');
      // Read out politely from the State panel's live region, which is there before the line is.
      await expect(page.getByRole('region', { name: 'State' }).getByRole('status')).toContainText('Failing since');
      // Cause and effect on one screen: the refused reports are in the panel's requests too.
      const requests = page.getByRole('region', { name: 'Requests' });
      await expect(requests.getByRole('row').filter({ hasText: '/timePlayed' }).first()).toContainText('401');
      // The mark and the line read in both themes (their red on the tab's and the panel's ground).
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        const { violations } = await new AxeBuilder({ page })
          .include('[data-testid="player-failing"]')
          .include('[data-testid="player-failing-line"]')
          .analyze();
        expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      }
      // SHOTS=<dir>: the tab and the panel at 1440 and 1024 px, to look at.
      const shots = process.env.SHOTS;
      if (shots)
        for (const width of [1440, 1024]) {
          await page.setViewportSize({ width, height: 900 });
          await page.waitForTimeout(500); // the side bar's labels fold with a transition
          await page.screenshot({ path: `${shots}/player-failing-${width}.png` });
        }
    } finally {
      await adminApi(ready, 'POST', '/clock', { speed: 1 });
    }
  });

  test('a refused press says why under the Now playing heading, which stays on one line', async ({
    consolePage,
    served,
    page,
  }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await consolePage.waitUntilLive();
    const items = Array.from({ length: 12 }, (_, i) => ({
      track: { name: `Tune ${i + 1}`, mediaUrl: `https://media.example/t${i + 1}.mp3`, durationMillis: 240_000 },
    }));
    // limitedSkips: a skip asks the server first (docs/contract/platform.md §4.3), so an injected 404 refuses it.
    await adminApi(served.ready, 'POST', '/queues', {
      name: 'Refusal mix',
      items,
      playbackPolicies: { limitedSkips: true },
    });
    const room = await addPlayer(served.ready, 'Refusal Room');
    const player = new PlayerPage(page);
    await player.open(room.name);
    await player.loadConsoleQueue('Refusal mix (12)');
    await player.expectState('PLAYING');
    await adminApi(served.ready, 'POST', '/faults', {
      target: 'cloudQueue',
      match: { reason: 'skipNext' },
      action: { type: 'status', status: 404 },
      times: 1,
    });
    try {
      await player.button('Skip to the next track').click();
      const nowPlaying = page.getByRole('region', { name: 'Now playing' });
      const refused = nowPlaying.getByRole('alert');
      await expect(refused).toContainText('404');
      const heading = (await nowPlaying.getByRole('heading', { name: 'Now playing' }).boundingBox())!;
      const buttons = (await page.getByRole('group', { name: 'Player buttons' }).boundingBox())!;
      const answer = (await refused.boundingBox())!;
      expect(heading.height).toBeLessThan(24);
      expect(answer.y).toBeGreaterThanOrEqual(buttons.y + buttons.height);
    } finally {
      await adminApi(served.ready, 'DELETE', '/faults');
    }
  });

  test('the player tabs and the clock speed are one Tab stop each, moved with the arrow keys', async ({
    consolePage,
    page,
    served,
  }) => {
    await consolePage.waitUntilLive();
    const player = new PlayerPage(page);
    await player.open('Kitchen');
    const tabs = page.getByRole('tablist', { name: 'Players' }).getByRole('tab');
    await expect(tabs.filter({ hasText: 'Kitchen' })).toHaveAttribute('tabindex', '0');
    await expect(tabs.filter({ hasText: 'Office' })).toHaveAttribute('tabindex', '-1');
    await tabs.filter({ hasText: 'Kitchen' }).focus();
    await page.keyboard.press('End');
    const last = tabs.last();
    await expect(last).toBeFocused();
    await expect(last).toHaveAttribute('aria-selected', 'true');
    // The panel is named after the tab's group (its badges change as the player does).
    const lastName = (await last.locator('span').first().textContent())!;
    await expect(page.getByRole('tabpanel')).toHaveAccessibleName(lastName);
    await page.keyboard.press('ArrowRight');
    await expect(tabs.first()).toBeFocused();
    await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');

    const speeds = page.getByRole('radiogroup', { name: 'Clock speed' });
    const realTime = speeds.getByRole('radio', { name: '1×' });
    await expect(realTime).toHaveAttribute('aria-checked', 'true');
    await expect(speeds.getByRole('radio', { name: '10×' })).toHaveAttribute('tabindex', '-1');
    await realTime.focus();
    try {
      await page.keyboard.press('ArrowRight');
      await expect(speeds.getByRole('radio', { name: '10×' })).toHaveAttribute('aria-checked', 'true');
      await page.keyboard.press('ArrowLeft');
      await expect(realTime).toHaveAttribute('aria-checked', 'true');
      await expect(realTime).toBeFocused();
    } finally {
      // The worker's console is shared with the specs after this one.
      await adminApi(served.ready, 'POST', '/clock', { speed: 1 });
    }
  });
});
