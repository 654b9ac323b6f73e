/**
 * Players of a served console set up over its admin API, for specs that watch one play: each in a
 * group of its own, so that no other spec's player is touched.
 */
import { expect } from '@playwright/test';
import type { QueueSummary } from '../main/engine/api/queue-types';
import type { PlayerView } from '../main/engine/api/types';
import type { ReadyLine } from '../main/testing/serve-process';
import { adminApi, controlApi } from './admin-api';

/** A new player named `name` and a suffix that keeps it apart from earlier runs'. */
export function addPlayer(ready: ReadyLine, name: string): Promise<PlayerView> {
  return adminApi<PlayerView>(ready, 'POST', '/players', { name: `${name} ${Date.now().toString(36)}` });
}

/** createSession + loadCloudQueue with playOnCompletion, through the control API with the console's own token. */
export async function loadOnPlayer(ready: ReadyLine, groupId: string, queue: QueueSummary): Promise<void> {
  const session = await controlApi(ready, `/api/v1/groups/${groupId}/playbackSession:1`, {
    appId: 'com.example.e2e',
    appContext: 'e2e',
  });
  expect(session.status).toBe(200);
  const load = await controlApi(
    ready,
    `/api/v1/playbackSessions/${session.body.sessionId}/playbackSession:1/loadCloudQueue`,
    {
      queueBaseUrl: queue.queueBaseUrl,
      httpAuthorization: queue.httpAuthorization,
      playOnCompletion: true,
    },
  );
  expect(load.status).toBe(200);
}
