/**
 * Contract violations read later (docs/contract/console.md §5): a violation the player found is
 * listed on the Player page after a reload, and leads to the traffic entry of the answer that
 * broke the rule, which lists it too.
 */
import { expect, test } from './fixtures';
import type { QueueSummary } from '../main/engine/api/queue-types';
import { adminApi, controlApi } from './admin-api';
import { PlayerPage } from './pages/player-page';
import { TrafficPage } from './pages/traffic-page';
import { addPlayer } from './players';

test('a violation stays on the Player page after a reload and opens its traffic entry', async ({
  consolePage,
  served,
  page,
}) => {
  const ready = served.ready;
  const items = Array.from({ length: 3 }, (_, i) => ({
    track: { name: `Broken ${i + 1}`, mediaUrl: `https://media.example/broken/${i + 1}.mp3`, durationMillis: 60_000 },
  }));
  const queue = await adminApi<QueueSummary>(ready, 'POST', '/queues', { name: 'Broken mix', items });
  // The load's first window comes back as a body that is not JSON: a violation, and the load fails.
  await adminApi(ready, 'POST', '/faults', {
    target: 'cloudQueue',
    match: { path: `${new URL(queue.queueBaseUrl).pathname}itemWindow`, reason: 'load' },
    action: { type: 'malformed' },
    times: 1,
  });
  try {
    const room = await addPlayer(ready, 'Violation Room');
    const session = await controlApi(ready, `/api/v1/groups/${room.groupId}/playbackSession:1`, {
      appId: 'com.example.e2e',
      appContext: 'e2e',
    });
    const load = await controlApi(
      ready,
      `/api/v1/playbackSessions/${session.body.sessionId}/playbackSession:1/loadCloudQueue`,
      {
        queueBaseUrl: queue.queueBaseUrl,
        httpAuthorization: queue.httpAuthorization,
        playOnCompletion: true,
      },
    );
    expect(load.body).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });

    await page.reload();
    await consolePage.waitUntilLive();
    const player = new PlayerPage(page);
    await player.open(room.name);
    const listed = page.getByRole('list', { name: 'Contract violations' }).getByRole('listitem');
    await expect(listed).toHaveCount(1);
    await expect(listed.first()).toContainText('itemWindow.json');
    await expect(listed.first()).toHaveAttribute('data-level', 'error');

    await listed.first().getByRole('link').click();
    const traffic = new TrafficPage(page);
    await expect(traffic.detail.getByRole('region', { name: 'Contract violations' })).toContainText('itemWindow.json');
    await expect(traffic.detail).toContainText('/itemWindow');
  } finally {
    await adminApi(ready, 'DELETE', '/faults');
  }
});
