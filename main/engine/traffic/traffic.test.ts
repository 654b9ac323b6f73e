/**
 * The traffic log over the admin API: capture at the servers, the player's own requests with
 * their retries and the transitions they caused, redaction, retention, filters and HAR.
 */
import harValidator from 'har-validator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TrafficEntry, TrafficSummary } from '../api/traffic-types.js';
import { EngineClock } from '../clock/clock.js';
import { EventBus } from '../events/bus.js';
import { seedDemoData } from '../household/seed.js';
import type { Engine } from '../index.js';
import { BUFFERING_MS } from '../player/audio.js';
import { PlayerRegistry } from '../player/registry.js';
import { admin, startTestEngine } from '../testing/http.js';
import { ManualWall } from '../testing/manual-wall.js';
import { StubCloudQueue, tracks } from '../testing/stub-cloud-queue.js';
import { trafficCommandHandlers } from './commands.js';
import { openStoreWithTrafficLog } from './log/index.js';
import { entryOfExchange } from './player-exchange.js';
import { TrafficRecorder } from './recorder.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(() => engine.close());
beforeEach(async () => {
  await admin(engine, 'DELETE', '/traffic');
  await admin(engine, 'PATCH', '/traffic/settings', { retention: 100_000, capture: true });
});

const list = async (query = '') => (await admin(engine, 'GET', `/traffic${query}`)).body as TrafficEntry[];

describe('capture at the servers', () => {
  it('records every exchange with target, method, path, reason, status and latency, oldest first', async () => {
    await fetch(`${engine.urls.control}/api/v1/households`, { headers: { authorization: 'Bearer nope' } });
    await fetch(`${engine.urls.cloudQueue}/queues/q1/v2.3/itemWindow?reason=load`);
    await fetch(`${engine.urls.login}/login/v3/oauth/access`, { method: 'POST' });
    const entries = await list();
    expect(entries.map((e) => [e.target, e.method, e.path, e.reason, e.status])).toEqual([
      ['control', 'GET', '/api/v1/households', null, 401],
      ['cloudQueue', 'GET', '/queues/q1/v2.3/itemWindow', 'load', 404],
      ['login', 'POST', '/login/v3/oauth/access', null, expect.any(Number)],
    ]);
    for (const entry of entries) expect(entry.latencyMs).toBeGreaterThanOrEqual(0);
    expect(entries[0]!.responseBody).toBe('Incorrect token');
  });

  it('keeps the headers as they went over the wire, read by lower-case name', async () => {
    await fetch(`${engine.urls.cloudQueue}/queues/q1/v2.3/version`, {
      headers: { 'X-Player-Id': 'kitchen', 'X-Request-Id': 'r-1' },
    });
    const [entry] = await list();
    expect(entry!.requestHeaders).toMatchObject({
      'x-player-id': 'kitchen',
      'x-request-id': 'r-1',
      host: new URL(engine.urls.cloudQueue).host,
    });
    // What Node added to the response is there too: the block is the one written to the socket.
    expect(entry!.responseHeaders).toMatchObject({
      'content-type': expect.stringContaining('application/json'),
      'content-length': String(entry!.responseBody!.length),
      connection: 'keep-alive',
    });
    expect(Date.parse(entry!.responseHeaders.date!)).toBeGreaterThan(0);
  });

  it('logs a window the cache sends as bytes with the text sent, and its length in bytes', async () => {
    const created = (
      await admin(engine, 'POST', '/queues', {
        items: [{ track: { name: 'Hoppípolla – Sigur Rós', mediaUrl: 'https://media.example/1.mp3' } }],
      })
    ).body as { queueBaseUrl: string; accessToken: string };
    const url = `${created.queueBaseUrl}itemWindow?reason=refresh&itemId=item-1`;
    const answers: { text: string; length: string | null }[] = [];
    // Kept on its second ask (and sent from the cache's bytes from then on).
    for (let i = 0; i < 3; i++) {
      const response = await fetch(url, { headers: { authorization: `Bearer ${created.accessToken}` } });
      answers.push({ text: await response.text(), length: response.headers.get('content-length') });
    }
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers[2]!.text).toContain('Hoppípolla – Sigur Rós');
    for (const answer of answers) expect(answer.length).toBe(String(Buffer.byteLength(answer.text)));
    const logged = (await list('?target=cloudQueue')).filter((e) => e.path.endsWith('/itemWindow'));
    expect(logged.map((e) => e.responseBody)).toEqual(answers.map((a) => a.text));
  });

  it('filters by target, reason, status and text, and reads on from a cursor', async () => {
    for (const reason of ['load', 'refresh', 'refresh'])
      await fetch(`${engine.urls.cloudQueue}/queues/q1/v2.3/itemWindow?reason=${reason}`);
    await fetch(`${engine.urls.control}/api/v1/households`);
    expect(await list('?target=cloudQueue&reason=refresh')).toHaveLength(2);
    expect(await list('?status=4xx')).toHaveLength(4);
    expect(await list('?status=401')).toHaveLength(1);
    expect(await list('?status=4XX')).toHaveLength(4);
    expect(await list('?status=none')).toHaveLength(0);
    expect(await list('?status=incomplete')).toHaveLength(0);
    expect(await list('?text=households')).toHaveLength(1);
    // One request's exchanges, by its X-Request-Id.
    await fetch(`${engine.urls.cloudQueue}/queues/q1/v2.3/version`, { headers: { 'X-Request-Id': 'r-42' } });
    expect((await list('?requestId=r-42')).map((e) => [e.target, e.requestId])).toEqual([['cloudQueue', 'r-42']]);
    const all = await list();
    expect((await list(`?since=${all[1]!.id}`)).map((e) => e.id)).toEqual(all.slice(2).map((e) => e.id));
    expect(await list('?limit=1')).toHaveLength(1);
  });

  it('refuses a status filter it cannot read (400 naming the field), rather than ignoring it', async () => {
    await fetch(`${engine.urls.control}/api/v1/households`);
    for (const status of ['abc', '40', '6xx', '%20401', '401,503']) {
      const { status: code, body } = await admin(engine, 'GET', `/traffic?status=${status}`);
      expect(code, status).toBe(400);
      expect(JSON.stringify(body), status).toContain('status');
    }
    expect(await list('?status=401')).toHaveLength(1);
    // Empty is no filter, as for the other fields.
    expect(await list('?status=')).toHaveLength(1);
  });

  it('returns a whole scenario’s worth without a limit (1,000 entries), oldest first', async () => {
    for (let i = 0; i < 1_010; i++) await fetch(`${engine.urls.cloudQueue}/queues/q1/v2.3/version?n=${i}`);
    const entries = await list('?target=cloudQueue');
    expect(entries).toHaveLength(1_000);
    expect(entries[0]!.url).toMatch(/n=0$/);
    expect(await list('?target=cloudQueue&limit=5000')).toHaveLength(1_010);
  });

  it('reads `since` as an entry id, or as an engine time when it is one (GET /clock `now`)', async () => {
    await fetch(`${engine.urls.cloudQueue}/queues/q1/v2.3/version?n=before`);
    await admin(engine, 'POST', '/clock', { advanceMs: 60_000 });
    const { now } = (await admin(engine, 'GET', '/clock')).body as { now: number };
    await fetch(`${engine.urls.cloudQueue}/queues/q1/v2.3/version?n=after`);
    const all = await list('?target=cloudQueue');
    expect(all.map((e) => e.url.split('n=')[1])).toEqual(['before', 'after']);
    expect((await list(`?target=cloudQueue&since=${now}`)).map((e) => e.id)).toEqual([all[1]!.id]);
    expect((await list(`?target=cloudQueue&since=${all[0]!.id}`)).map((e) => e.id)).toEqual([all[1]!.id]);
  });

  it('masks secrets, and reveals them on request', async () => {
    // Any listener will do: the console's own admin API takes JSON bodies on every command.
    await fetch(`${engine.urls.console}/admin/api/commands/clock.get`, {
      method: 'POST',
      headers: { authorization: `Bearer ${engine.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ client_secret: 'supersecretvalue', refresh_token: 'rt-1234567' }),
    });
    const [entry] = await list('?target=console');
    expect(entry!.requestHeaders.authorization).toBe(`Bearer ${engine.adminToken.slice(0, 4)}•••`);
    expect(JSON.parse(entry!.requestBody!)).toEqual({ client_secret: 'supe•••', refresh_token: 'rt-1•••' });
    const revealed = (await admin(engine, 'GET', `/traffic/${entry!.id}?reveal=true`)).body as TrafficEntry;
    expect(revealed.redacted).toBe(false);
    expect(revealed.requestHeaders.authorization).toBe(`Bearer ${engine.adminToken}`);
    expect(JSON.parse(revealed.requestBody!)).toEqual({
      client_secret: 'supersecretvalue',
      refresh_token: 'rt-1234567',
    });
  });

  it('keeps no more than the retention cap, dropping the oldest', async () => {
    await admin(engine, 'PATCH', '/traffic/settings', { retention: 100 });
    for (let i = 0; i < 130; i++) await fetch(`${engine.urls.cloudQueue}/queues/q${i}/v2.3/version`);
    const entries = await list('?limit=1000');
    expect(entries).toHaveLength(100);
    expect(entries[0]!.path).toBe('/queues/q30/v2.3/version');
    expect(entries.at(-1)!.path).toBe('/queues/q129/v2.3/version');
  });

  it('captures nothing while capture is off', async () => {
    await admin(engine, 'PATCH', '/traffic/settings', { capture: false });
    await fetch(`${engine.urls.cloudQueue}/queues/q1/v2.3/version`);
    expect(await list()).toEqual([]);
  });

  it('exports the filtered set as HAR 1.2 that a HAR validator accepts', async () => {
    await fetch(`${engine.urls.cloudQueue}/queues/q1/v2.3/itemWindow?reason=load`);
    await fetch(`${engine.urls.control}/api/v1/households`, { headers: { authorization: 'Bearer abcdefgh' } });
    const { body } = await admin(engine, 'POST', '/traffic/har', { filter: { target: 'control' } });
    await expect(harValidator.har(body)).resolves.toBeDefined();
    const har = body as {
      log: { entries: { request: { url: string; headers: { name: string; value: string }[] }; _target: string }[] };
    };
    expect(har.log.entries).toHaveLength(1);
    expect(har.log.entries[0]!._target).toBe('control');
    expect(har.log.entries[0]!.request.headers.find((h) => h.name === 'authorization')?.value).toBe('Bearer abcd•••');
  });

  it('exports the newest entries of the set when it holds more than the limit, oldest first', async () => {
    for (let i = 0; i < 5; i++) await fetch(`${engine.urls.cloudQueue}/queues/q1/v2.3/version?n=${i}`);
    const { body } = await admin(engine, 'POST', '/traffic/har', { filter: { target: 'cloudQueue' }, limit: 2 });
    const har = body as { log: { entries: { request: { url: string } }[] } };
    expect(har.log.entries.map((e) => e.request.url.split('n=')[1])).toEqual(['3', '4']);
  });

  it('does not log its own reads', async () => {
    await admin(engine, 'GET', '/traffic');
    await admin(engine, 'POST', '/commands/traffic.page', { offset: 0, limit: 10 });
    await admin(engine, 'GET', '/clock');
    expect((await list()).map((e) => e.path)).toEqual(['/admin/api/clock']);
  });
});

describe('the list the console shows', () => {
  it('finds an entry\u2019s place in a filtered set, and says when the set does not hold it', async () => {
    for (const reason of ['load', 'refresh', 'load', 'refresh'])
      await fetch(`${engine.urls.cloudQueue}/queues/q1/v2.3/itemWindow?reason=${reason}`);
    const all = await list();
    const refreshes = all.filter((e) => e.reason === 'refresh');
    expect(
      await engine.commands.run('traffic.locate', { filter: { reason: 'refresh' }, id: refreshes[1]!.id }),
    ).toEqual({ index: 1 });
    expect(await engine.commands.run('traffic.locate', { id: all[2]!.id })).toEqual({ index: 2 });
    expect(await engine.commands.run('traffic.locate', { filter: { reason: 'refresh' }, id: all[0]!.id })).toEqual({
      index: null,
    });
    // Once the retention cap drops an entry, the ones after it move up.
    await admin(engine, 'PATCH', '/traffic/settings', { retention: 100 });
    for (let i = 0; i < 100; i++) await fetch(`${engine.urls.cloudQueue}/queues/q2/v2.3/version`);
    expect(await engine.commands.run('traffic.locate', { id: all[0]!.id })).toEqual({ index: null });
  });

  it('finds text in the query string as well as in the path and bodies', async () => {
    await fetch(`${engine.urls.cloudQueue}/queues/q1/v2.3/itemWindow?reason=skipToItem&itemId=item-4711`);
    await fetch(`${engine.urls.cloudQueue}/queues/q1/v2.3/itemWindow?reason=skipToItem&itemId=item-1`);
    expect((await list('?text=item-4711')).map((e) => e.url)).toEqual([expect.stringContaining('itemId=item-4711')]);
  });
});

describe('the player\u2019s own requests', () => {
  it('are logged with their retry number and linked to the transitions they caused', async () => {
    const { store, traffic: log } = openStoreWithTrafficLog({ dataDir: null });
    seedDemoData(store, 0);
    const clock = new EngineClock({ wall: new ManualWall(), speed: 0, settleTimeoutMs: 500 });
    const bus = new EventBus();
    const recorder = new TrafficRecorder({ repo: log, settings: store.settings, bus });
    const players = new PlayerRegistry({ store, clock, bus, onExchange: (e) => recorder.add(entryOfExchange(e)) });
    const traffic = trafficCommandHandlers(recorder, log, store);
    const stub = await new StubCloudQueue({ items: tracks(5), policies: { limitedSkips: true } }).start();
    try {
      const player = players.forGroup('group-kitchen')!;
      player.createSession('app', 'ctx');
      await player.load({ queueBaseUrl: stub.baseUrl, playOnCompletion: true });
      await clock.advance(BUFFERING_MS);
      stub.script('itemWindow', { status: 503, headers: { 'retry-after': '2' } }, { reason: 'skipNext' });
      const skip = player.act('skipNext', 'user');
      await clock.advance(2_000);
      await skip;
      const { rows } = await traffic['traffic.page']({
        filter: { target: 'player', reason: 'skipNext' },
        offset: 0,
        limit: 10,
      });
      expect(rows.map((r: TrafficSummary) => [r.status, r.retry, r.playerId])).toEqual([
        [503, 0, 'player-kitchen'],
        [200, 1, 'player-kitchen'],
      ]);
      const answered = await traffic['traffic.get']({ id: rows[1]!.id });
      expect(answered.transitions).toEqual([
        expect.objectContaining({
          transition: 'skip-answered-plays',
          from: 'PLAYING',
          to: 'BUFFERING',
          playerId: 'player-kitchen',
        }),
      ]);
      expect(answered.requestHeaders['x-player-id']).toBe('player-kitchen');
      // The list (GET /admin/api/traffic) carries the same links.
      const listed = await traffic['traffic.list']({ target: 'player', reason: 'skipNext' });
      expect(listed.map((e) => e.transitions.map((t) => t.transition))).toEqual([[], ['skip-answered-plays']]);
    } finally {
      players.close();
      clock.close();
      await stub.close();
    }
  });
});
