/**
 * A server of the integrator's own that reads a request and drops its connection, as one failing
 * on purpose does: the console's player counts that as its try, and the server sees the tries the
 * platform's player makes, no more (outsider: the transport sent a GET again unseen on a kept
 * connection, and a server that dropped four tries saw five; platform §7.2, §7.4).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ControlExchange } from '../api/commands/player.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());

async function send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ControlExchange> {
  const { status, body: answer } = await admin(engine, 'POST', '/control/send', { method, path, body });
  expect(status, JSON.stringify(answer)).toBe(200);
  return answer as ControlExchange;
}

it('a /version the server read and dropped is tried as §7.4 says, never sent again at once', async () => {
  const versions: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const json = (status: number, body?: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(body && JSON.stringify(body));
    request.resume();
    if (path.endsWith('/version')) {
      versions.push(request.headers['x-request-id'] as string);
      return void request.socket.destroy();
    }
    if (path.endsWith('/context')) return json(200, { contextVersion: '1', queueVersion: 'v1' });
    if (path.endsWith('/timePlayed')) return json(204);
    if (path.endsWith('/itemWindow'))
      return json(200, {
        includesBeginningOfQueue: true,
        includesEndOfQueue: true,
        queueVersion: 'v1',
        items: [1, 2].map((n) => ({
          id: `item-${n}`,
          track: { name: `Track ${n}`, mediaUrl: `https://media.example.com/${n}.mp3`, durationMillis: 240_000 },
        })),
      });
    json(404, { error: { code: 404, message: 'no' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const session = (
      await send('POST', '/api/v1/groups/group-kitchen/playbackSession', { appId: 'com.example.drop', appContext: 'x' })
    ).body as { sessionId: string };
    const load = await send('POST', `/api/v1/playbackSessions/${session.sessionId}/playbackSession/loadCloudQueue`, {
      queueBaseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/q/v2.3/`,
      httpAuthorization: 'Bearer own',
      playOnCompletion: true,
    });
    expect(load.status, JSON.stringify(load.body)).toBe(200);
    // At once, on the connection the load's requests kept alive a moment ago.
    const poll = await admin(engine, 'POST', '/players/player-kitchen/trigger', { request: 'versionPoll' });
    expect(poll.status, JSON.stringify(poll.body)).toBe(200);
    await expect.poll(() => versions.length).toBe(1);
    // Nothing more until the first background retry, 10 s of engine time later.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(versions).toHaveLength(1);
    await admin(engine, 'POST', '/clock', { advanceMs: 10_500 });
    await expect.poll(() => versions.length).toBe(2);
    expect(new Set(versions).size).toBe(2);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
