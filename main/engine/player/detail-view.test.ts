/**
 * A player's detail shows its window and track with each text cut (detail-view.ts): a server that
 * names a track with megabytes of text made every detail and every `player.changed` event twice
 * that size (audit: 14.7 MB each, ten readers at once held every listener 294 ms). The player's
 * own state and the control API's playbackMetadata keep the text whole.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ControlExchange } from '../api/commands/player.js';
import type { PlayerDetail } from '../api/player-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { shownTrack } from './detail-view.js';
import { shown, SHOWN_CHARS } from './shown.js';

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

/** A cloud queue server of two tracks, the first named with `name`, with a long unknown field too. */
async function longNames(name: string): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const track = (n: number) => ({
    name: n === 1 ? name : `Track ${n}`,
    ...(n === 1 ? { notes: 'x'.repeat(512 * 1024), artist: { name } } : {}),
    mediaUrl: `https://media.example.com/${n}.mp3`,
    durationMillis: 240_000,
  });
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const json = (status: number, body?: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(body && JSON.stringify(body));
    request.resume();
    if (path.endsWith('/context'))
      return json(200, { contextVersion: '1', queueVersion: 'v1', playbackPolicies: { canSkip: true } });
    if (path.endsWith('/version')) return json(200, { contextVersion: '1', queueVersion: 'v1' });
    if (path.endsWith('/timePlayed')) return json(204);
    if (path.endsWith('/itemWindow'))
      return json(200, {
        includesBeginningOfQueue: true,
        includesEndOfQueue: true,
        queueVersion: 'v1',
        items: [1, 2].map((n) => ({ id: `item-${n}`, track: track(n) })),
      });
    json(404, { error: { code: 404, message: 'no' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/q/v2.3/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

it('cuts a track named with a megabyte of text in the detail and its event, and keeps it whole for the control API', async () => {
  const name = `A${'n'.repeat(1024 * 1024)}`;
  const outside = await longNames(name);
  try {
    const events: PlayerDetail[] = [];
    const off = engine.events.on('player.changed', (detail) => events.push(detail));
    const session = (
      await send('POST', '/api/v1/groups/group-kitchen/playbackSession', { appId: 'com.example.long', appContext: 'x' })
    ).body as { sessionId: string };
    const load = await send('POST', `/api/v1/playbackSessions/${session.sessionId}/playbackSession/loadCloudQueue`, {
      queueBaseUrl: outside.baseUrl,
      httpAuthorization: 'Bearer outside',
      playOnCompletion: true,
    });
    expect(load.status, JSON.stringify(load.body)).toBe(200);
    await admin(engine, 'POST', '/clock', { advanceMs: 1_000 });
    off();

    const detail = (await admin(engine, 'GET', '/players/player-kitchen/detail')).body as PlayerDetail;
    expect(detail.state).toBe('PLAYING');
    expect(JSON.stringify(detail).length).toBeLessThan(64 * 1024);
    expect(detail.track!.name).toBe(`${name.slice(0, SHOWN_CHARS)}… (1,048,577 characters)`);
    expect(detail.track!.artist!.name).toBe(detail.track!.name);
    expect(detail.track).not.toHaveProperty('notes');
    expect(detail.window!.items[0]!.name).toBe(detail.track!.name);
    expect(detail.window!.items[1]!.name).toBe('Track 2');
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(JSON.stringify(event).length).toBeLessThan(64 * 1024);

    // The platform's own answer keeps what the server sent.
    const metadata = await send('GET', '/api/v1/groups/group-kitchen/playbackMetadata');
    expect((metadata.body as { currentItem: { track: { name: string } } }).currentItem.track.name).toBe(name);
  } finally {
    await outside.close();
  }
});

it('shows short texts as they are, and only the panel’s fields of a track', () => {
  expect(shown('Track 1')).toBe('Track 1');
  expect(shown('x'.repeat(SHOWN_CHARS))).toBe('x'.repeat(SHOWN_CHARS));
  expect(
    shownTrack({
      id: 'item-1',
      name: 'Track 1',
      mediaUrl: 'https://media.example.com/1.mp3',
      durationMillis: 1_000,
      imageUrl: 'https://img.example.com/1.jpg',
      artist: { name: 'Artist', id: 'a-1' },
      album: { name: 'Album' },
      contentType: 'audio/mpeg',
    }),
  ).toEqual({
    id: 'item-1',
    name: 'Track 1',
    mediaUrl: 'https://media.example.com/1.mp3',
    durationMillis: 1_000,
    imageUrl: 'https://img.example.com/1.jpg',
    artist: { name: 'Artist' },
    album: { name: 'Album' },
  });
});
