/**
 * A server of the integrator's own that reads a request and drops its connection, as one failing
 * on purpose does: the console's player counts that as its try, and the server sees the tries the
 * platform's player makes, no more (outsider: the transport sent a GET again unseen on a kept
 * connection, and a server that dropped four tries saw five; platform §7.2, §7.4).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Engine } from '../index.js';
import { admin, advanceClock, controlSend, startTestEngine } from '../testing/http.js';
import { StubCloudQueue } from '../testing/stub-cloud-queue.js';

let engine: Engine;
let server: StubCloudQueue;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  server = await new StubCloudQueue().start();
});
afterAll(async () => {
  await server.close();
  await engine.close();
});

it('a /version the server read and dropped is tried as §7.4 says, never sent again at once', async () => {
  const session = (
    await controlSend(engine, '/api/v1/groups/group-kitchen/playbackSession', {
      appId: 'com.example.drop',
      appContext: 'x',
    })
  ).body as { sessionId: string };
  const load = await controlSend(
    engine,
    `/api/v1/playbackSessions/${session.sessionId}/playbackSession/loadCloudQueue`,
    {
      queueBaseUrl: server.baseUrl,
      httpAuthorization: 'Bearer own',
      playOnCompletion: true,
    },
  );
  expect(load.status, JSON.stringify(load.body)).toBe(200);
  server.script('version', { drop: true }, { times: 4 });
  // At once, on the connection the load's requests kept alive a moment ago.
  const poll = await admin(engine, 'POST', '/players/player-kitchen/trigger', { request: 'versionPoll' });
  expect(poll.status, JSON.stringify(poll.body)).toBe(200);
  await expect.poll(() => server.sent('version').length).toBe(1);
  // Nothing more until the first background retry, 10 s of engine time later.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(server.sent('version')).toHaveLength(1);
  await advanceClock(engine, 10_500);
  await expect.poll(() => server.sent('version').length).toBe(2);
  expect(new Set(server.sent('version').map((r) => r.headers['x-request-id'])).size).toBe(2);
});
