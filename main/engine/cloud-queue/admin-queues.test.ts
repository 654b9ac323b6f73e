/** The queue rows of the admin API (docs/contract/console.md §7) and the editor's commands, over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueEditResult, QueueGeneration, QueueItemsPage, QueueSummary, QueueView } from '../api/queue-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());

const track = (name: string) => ({
  track: { name, mediaUrl: `https://media.example.com/${encodeURIComponent(name)}.mp3` },
});
const names = (view: QueueView) => view.items.map((i) => i.track.name);

async function create(body: unknown = { name: 'Q', items: ['a', 'b', 'c', 'd'].map(track) }): Promise<QueueSummary> {
  return (await admin(engine, 'POST', '/queues', body)).body as QueueSummary;
}
const get = async (id: string) => (await admin(engine, 'GET', `/queues/${id}`)).body as QueueView;
/** A queue's row in the list: its item count, however long it is (GET /queues/{id} refuses one too long to answer whole). */
const summaryOf = async (id: string) =>
  ((await admin(engine, 'GET', '/queues')).body as QueueSummary[]).find((q) => q.id === id)!;

describe('POST/GET/PATCH/DELETE /admin/api/queues', () => {
  it('POST creates a queue and answers id, queueBaseUrl, accessToken and queueVersion', async () => {
    const { status, body } = await admin(engine, 'POST', '/queues', {
      name: 'Morning',
      items: [track('a'), track('b')],
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: expect.any(String),
      queueBaseUrl: expect.stringMatching(/\/v2\.3\/$/),
      accessToken: expect.any(String),
      queueVersion: expect.any(String),
    });
    const view = await get((body as QueueSummary).id);
    expect(view).toMatchObject({
      name: 'Morning',
      itemCount: 2,
      items: [
        { id: 'item-1', ...track('a') },
        { id: 'item-2', ...track('b') },
      ],
    });
  });

  it('POST takes playbackPolicies and reports; the rest keep their defaults', async () => {
    const queue = await create({
      items: [],
      playbackPolicies: { notifyUserIntent: true },
      reports: { sendUpdateAfterMillis: 5000 },
    });
    const view = await get(queue.id);
    expect(view.playbackPolicies).toMatchObject({ notifyUserIntent: true, canSkip: true, limitedSkips: false });
    expect(view.reports).toEqual({
      sendUpdateAfterMillis: 5000,
      periodicIntervalMillis: 30_000,
      sendPlaybackActions: true,
    });
  });

  it('POST rejects bad input with 400 and creates nothing', async () => {
    const before = ((await admin(engine, 'GET', '/queues')).body as unknown[]).length;
    for (const body of [
      { items: [{ name: 'no track' }] },
      { items: [{ track: { durationMillis: -5 } }] },
      { playbackPolicies: { pauseTtlSec: 'long' } },
      { reports: { bogus: 1 } },
      { name: '' },
    ]) {
      const { status, body: answer } = await admin(engine, 'POST', '/queues', body);
      expect(status).toBe(400);
      expect(answer).toMatchObject({ error: { code: 'invalid_input' } });
    }
    expect(((await admin(engine, 'GET', '/queues')).body as unknown[]).length).toBe(before);
  });

  it('GET lists queues without items; GET of an unknown id is 404', async () => {
    const queue = await create();
    const list = (await admin(engine, 'GET', '/queues')).body as QueueSummary[];
    expect(list.find((q) => q.id === queue.id)).toMatchObject({ itemCount: 4, queueVersion: queue.queueVersion });
    expect(list[0]).not.toHaveProperty('items');
    expect((await admin(engine, 'GET', '/queues/queue-nope')).status).toBe(404);
  });

  it('PATCH items replaces the list: a known id keeps its id, a new item gets a new one, ids are never reused', async () => {
    const queue = await create();
    const { status, body } = await admin(engine, 'PATCH', `/queues/${queue.id}`, {
      items: [
        { id: 'item-3', ...track('c2') },
        track('e'),
        { id: 'item-1', ...track('a') },
        { id: 'made-up', ...track('f') },
      ],
    });
    expect(status).toBe(200);
    expect((body as QueueSummary).queueVersion).not.toBe(queue.queueVersion);
    const view = await get(queue.id);
    expect(view.items.map((i) => i.id)).toEqual(['item-3', 'item-5', 'item-1', 'item-6']);
    expect(names(view)).toEqual(['c2', 'e', 'a', 'f']);
    // item-2 and item-4 are gone for good: the next new item is item-7.
    const added = (await admin(engine, 'POST', `/queues/${queue.id}/items`, { items: [track('g')] }))
      .body as QueueEditResult;
    expect(added.itemIds).toEqual(['item-7']);
  });

  it('PATCH with the same id twice is 400 and changes nothing', async () => {
    const queue = await create();
    const { status } = await admin(engine, 'PATCH', `/queues/${queue.id}`, {
      items: [
        { id: 'item-1', ...track('x') },
        { id: 'item-1', ...track('y') },
      ],
    });
    expect(status).toBe(400);
    const view = await get(queue.id);
    expect(names(view)).toEqual(['a', 'b', 'c', 'd']);
    expect(view.queueVersion).toBe(queue.queueVersion);
    const version = (await (
      await fetch(`${queue.queueBaseUrl}version`, { headers: { authorization: queue.httpAuthorization } })
    ).json()) as { queueVersion: string };
    expect(version.queueVersion).toBe(queue.queueVersion);
  });

  it('PATCH name, policies and reports merge and move both versions', async () => {
    const queue = await create();
    const patched = (
      await admin(engine, 'PATCH', `/queues/${queue.id}`, {
        name: 'Renamed',
        playbackPolicies: { canSeek: false },
        reports: { periodicIntervalMillis: 20_000 },
      })
    ).body as QueueSummary;
    expect(patched).toMatchObject({ name: 'Renamed' });
    expect(patched.contextVersion).not.toBe(queue.contextVersion);
    expect(patched.queueVersion).not.toBe(queue.queueVersion);
    const view = await get(queue.id);
    expect(view.playbackPolicies).toMatchObject({ canSeek: false, canSkip: true });
    expect(view.reports).toMatchObject({ periodicIntervalMillis: 20_000, sendUpdateAfterMillis: 30_000 });
    expect(view.container.name).toBe('Renamed');
  });

  it('GET /queues/{id}/context shows what GET /context shows players', async () => {
    const queue = await create();
    const viaAdmin = (await admin(engine, 'GET', `/queues/${queue.id}/context`)).body;
    const viaPlayer = await (
      await fetch(`${queue.queueBaseUrl}context`, { headers: { authorization: queue.httpAuthorization } })
    ).json();
    expect(viaAdmin).toEqual(viaPlayer);
  });

  it('DELETE removes the queue; a second DELETE is 404', async () => {
    const queue = await create();
    expect((await admin(engine, 'DELETE', `/queues/${queue.id}`)).status).toBe(200);
    expect((await admin(engine, 'GET', `/queues/${queue.id}`)).status).toBe(404);
    expect((await admin(engine, 'DELETE', `/queues/${queue.id}`)).status).toBe(404);
  });
});

describe("the editor's item commands", () => {
  it('every edit moves queueVersion', async () => {
    const queue = await create();
    const versions = [queue.queueVersion];
    const edits: [string, string, unknown][] = [
      ['POST', `/queues/${queue.id}/items`, { items: [track('x')], afterItemId: 'item-1' }],
      ['POST', `/queues/${queue.id}/items/generate`, { count: 3 }],
      ['POST', `/queues/${queue.id}/items/move`, { itemIds: ['item-4'], afterItemId: null }],
      ['PATCH', `/queues/${queue.id}/items/item-2`, { track: { name: 'b2' } }],
      ['POST', `/queues/${queue.id}/items/remove`, { itemIds: ['item-3'] }],
      ['DELETE', `/queues/${queue.id}/items/item-1`, undefined],
      ['PATCH', `/queues/${queue.id}`, { playbackPolicies: { canSkip: false } }],
    ];
    for (const [method, path, body] of edits) {
      const { status, body: answer } = await admin(engine, method, path, body);
      expect(status, `${method} ${path}`).toBe(200);
      const version =
        'queueVersion' in (answer as object)
          ? (answer as QueueEditResult).queueVersion
          : (await get(queue.id)).queueVersion;
      expect(versions).not.toContain(version);
      versions.push(version);
    }
    expect(names(await get(queue.id)).slice(0, 3)).toEqual(['d', 'x', 'b2']);
  });

  it('adds at the start (afterItemId null), after an item, or at the end', async () => {
    const queue = await create();
    await admin(engine, 'POST', `/queues/${queue.id}/items`, { items: [track('start')], afterItemId: null });
    await admin(engine, 'POST', `/queues/${queue.id}/items`, {
      items: [track('mid1'), track('mid2')],
      afterItemId: 'item-2',
    });
    await admin(engine, 'POST', `/queues/${queue.id}/items`, { items: [track('end')] });
    expect(names(await get(queue.id))).toEqual(['start', 'a', 'b', 'mid1', 'mid2', 'c', 'd', 'end']);
  });

  it('moves several items in their queue order', async () => {
    const queue = await create();
    await admin(engine, 'POST', `/queues/${queue.id}/items/move`, {
      itemIds: ['item-4', 'item-1'],
      afterItemId: 'item-2',
    });
    expect(names(await get(queue.id))).toEqual(['b', 'a', 'd', 'c']);
  });

  it('rejects edits naming unknown items with 404 and changes nothing', async () => {
    const queue = await create();
    expect(
      (await admin(engine, 'POST', `/queues/${queue.id}/items/remove`, { itemIds: ['item-1', 'item-99'] })).status,
    ).toBe(404);
    expect(
      (await admin(engine, 'POST', `/queues/${queue.id}/items/move`, { itemIds: ['item-99'], afterItemId: null }))
        .status,
    ).toBe(404);
    expect(
      (await admin(engine, 'POST', `/queues/${queue.id}/items`, { items: [track('x')], afterItemId: 'item-99' }))
        .status,
    ).toBe(404);
    expect(
      (await admin(engine, 'POST', `/queues/${queue.id}/items/move`, { itemIds: ['item-1'], afterItemId: 'item-1' }))
        .status,
    ).toBe(400);
    const view = await get(queue.id);
    expect(names(view)).toEqual(['a', 'b', 'c', 'd']);
    expect(view.queueVersion).toBe(queue.queueVersion);
  });

  it('changes an item: its track and policies, keeping its id and place', async () => {
    const queue = await create();
    const track = { name: 'B', mediaUrl: 'https://media.example/b.mp3', durationMillis: 1000 };
    const { body } = await admin(engine, 'PATCH', `/queues/${queue.id}/items/item-2`, {
      track,
      policies: { canSkip: false },
    });
    expect(body).toEqual({ id: 'item-2', track, policies: { canSkip: false } });
    await admin(engine, 'PATCH', `/queues/${queue.id}/items/item-2`, { policies: null });
    expect((await get(queue.id)).items[1]).toEqual({ id: 'item-2', track });
    // An item's policies are checked as the queue's are: a pauseTtlSec is whole seconds.
    const refused = await admin(engine, 'PATCH', `/queues/${queue.id}/items/item-2`, {
      policies: { pauseTtlSec: 'abc' },
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_input', message: expect.stringContaining('/policies/pauseTtlSec') } },
    });
    expect((await admin(engine, 'POST', '/queues', { items: [{ track, policies: { canSkip: 'no' } }] })).status).toBe(
      400,
    );
  });

  it('gives a track without mediaUrl a placeholder, so that a player can play it; keeps the rest as given', async () => {
    const queue = await create({ items: [{ track: { name: 'No media' } }] });
    const [item] = (await get(queue.id)).items;
    expect(item).toEqual({
      id: 'item-1',
      track: { name: 'No media', mediaUrl: expect.stringMatching(/^https:\/\/.+\/item-1\.mp3$/) },
    });
    const { body } = await admin(engine, 'PATCH', `/queues/${queue.id}/items/item-1`, {
      track: { name: 'Still none' },
    });
    expect(body).toMatchObject({ track: { mediaUrl: item!.track.mediaUrl } });
  });

  it('generates N sample tracks with everything a player needs', async () => {
    const queue = await create({ items: [] });
    const { body } = await admin(engine, 'POST', `/queues/${queue.id}/items/generate`, { count: 25 });
    expect(body).toMatchObject({ itemCount: 25, itemIds: expect.arrayContaining(['item-1', 'item-25']) });
    const item = (await get(queue.id)).items[0]!;
    expect(item.track).toMatchObject({
      name: expect.any(String),
      mediaUrl: expect.stringMatching(/^https:/),
      contentType: 'audio/mpeg',
      durationMillis: expect.any(Number),
      artist: { name: expect.any(String) },
      album: { name: expect.any(String) },
    });
  });

  it('answers a long list of ids in turns (admin/answer-in-turns.ts): the same JSON, written in pieces', async () => {
    const queue = await create({ items: [] });
    const response = await fetch(`${engine.urls.console}/admin/api/queues/${queue.id}/items/generate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${engine.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ count: 20_001 }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // Written as it is made: no length known at the head.
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const body = (await response.json()) as { itemCount: number; itemIds: string[] };
    expect(body.itemCount).toBe(20_001);
    expect(body.itemIds).toEqual(Array.from({ length: 20_001 }, (_, i) => `item-${i + 1}`));
  });

  it('answers other calls while a long generation runs, which shows its progress, and stops it on request', async () => {
    const queue = await create({ items: [] });
    const reports: QueueGeneration[] = [];
    const off = engine.events.on('queues.generation', (data) => reports.push(data));
    const firstStep = new Promise<void>((resolve) => {
      const offFirst = engine.events.on('queues.generation', () => {
        offFirst();
        resolve();
      });
    });
    try {
      const generating = admin(engine, 'POST', `/queues/${queue.id}/items/generate`, { count: 200_000 });
      await firstStep;
      // Made in edits of 5,000: the engine reads and answers between them.
      const midway = await summaryOf(queue.id);
      expect(reports.at(-1)!.state).toBe('running');
      expect(midway.itemCount).toBeGreaterThan(0);
      expect(midway.itemCount).toBeLessThan(200_000);
      expect((await admin(engine, 'POST', `/queues/${queue.id}/items/generate/stop`, {})).body).toEqual({
        stopped: true,
      });
      const { status, body } = await generating;
      expect(status).toBe(200);
      const made = (body as QueueEditResult).itemIds!.length;
      expect(made).toBeLessThan(200_000);
      expect((await summaryOf(queue.id)).itemCount).toBe(made);
      expect(reports.at(-1)).toEqual({ queueId: queue.id, state: 'stopped', done: made, total: 200_000 });
      expect((await admin(engine, 'POST', `/queues/${queue.id}/items/generate/stop`, {})).body).toEqual({
        stopped: false,
      });
      expect((await admin(engine, 'POST', '/queues/nope/items/generate/stop', {})).status).toBe(404);
    } finally {
      off();
    }
  });

  it('pages the list by position with report counts, and locates an item', async () => {
    const queue = await create({ items: [] });
    await admin(engine, 'POST', `/queues/${queue.id}/items/generate`, { count: 30 });
    const page = (await admin(engine, 'GET', `/queues/${queue.id}/items?offset=10&limit=5`)).body as QueueItemsPage;
    expect(page).toMatchObject({ total: 30, offset: 10, queueVersion: expect.any(String) });
    expect(page.items.map((i) => [i.index, i.id])).toEqual([10, 11, 12, 13, 14].map((n) => [n, `item-${n + 1}`]));
    expect((await admin(engine, 'GET', `/queues/${queue.id}/items/item-17/index`)).body).toMatchObject({ index: 16 });
  });

  it('round-trips a queue through its exported JSON into a new queue', async () => {
    const queue = await create({
      name: 'Export me',
      items: [track('a'), track('b')],
      playbackPolicies: { limitedSkips: true },
    });
    const { name, items, playbackPolicies, reports } = await get(queue.id);
    const copy = await create({ name, items, playbackPolicies, reports });
    const view = await get(copy.id);
    expect(view.items).toEqual(items);
    expect(view.playbackPolicies).toEqual(playbackPolicies);
  });

  it('pushes queues.changed on every edit', async () => {
    const seen: { change: string; queueVersion: string | null }[] = [];
    const off = engine.events.on('queues.changed', (data) => seen.push(data));
    const queue = await create();
    await admin(engine, 'POST', `/queues/${queue.id}/items/generate`, { count: 1 });
    await admin(engine, 'DELETE', `/queues/${queue.id}`);
    off();
    expect(seen.map((e) => e.change)).toEqual(['created', 'edited', 'deleted']);
  });

  it('creates a 20,000-item queue in one request through the admin API', async () => {
    const items = Array.from({ length: 20_000 }, (_, i) => track(`t${i}`));
    const { status, body } = await admin(engine, 'POST', '/queues', { items });
    expect(status).toBe(200);
    expect((body as QueueSummary).itemCount).toBe(20_000);
  });
});
