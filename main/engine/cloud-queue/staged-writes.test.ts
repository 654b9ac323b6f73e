/**
 * Big queue writes hold no listener more than 250 ms, and no reader sees them half done
 * (docs/contract/console.md §9). The attack: creating, replacing or adding 100,000 items in one
 * admin call held every listener 0.5–1 s (500,000 items: 1.8 s and more), while a player of another
 * queue waited for its GET /version.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BUNDLE_FORMAT, BUNDLE_VERSION, type BundleImportResult } from '../api/bundle-types.js';
import { MAX_ITEMS_PER_WRITE } from '../api/commands/queues.js';
import type { QueueEditResult, QueueItemsPage, QueueSummary } from '../api/queue-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { DATABASE_FILE } from '../store/database.js';
import { openStore } from '../store/store.js';
import { tempDirs } from '../testing/temp-dirs.js';
import { sampleTracks } from './samples.js';
import { QueueModel } from './queue-model.js';
import { WRITE_STEP } from './staged-writes.js';
import { probeStalls } from '../testing/stall-probe.js';

const tempDir = tempDirs('cqc-staged-writes-');
const STALL_MS = 250;
const BIG = 100_000;

/** A body made before any probe runs (making 30 MB of JSON holds this process too). */
function itemsBody(fields: Record<string, unknown>, count: number, from = 1, name = 'Big'): Buffer {
  const items = sampleTracks(from, count).map((track) => ({ track: { ...track, name: `${name} ${track.name}` } }));
  return Buffer.from(JSON.stringify({ ...fields, items }));
}

/** An admin call with a body made beforehand. */
async function send(
  engine: Engine,
  method: string,
  path: string,
  body: Buffer,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${engine.urls.console}/admin/api${path}`, {
    method,
    headers: { authorization: `Bearer ${engine.adminToken}`, 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, body: await response.json() };
}

/** A probe of `url`'s answers; `stop` gives the longest span between two of them, `account` what was in the slowest (testing/stall-probe.ts). */
async function pinger(
  url: string,
  headers: Record<string, string>,
  seen?: (body: string) => void,
): Promise<{ stop: () => Promise<number>; account: () => string }> {
  const probe = await probeStalls(url, { headers, ...(seen ? { seen } : {}) });
  return { stop: async () => Math.max(...(await probe.stop())), account: () => probe.account() };
}

const versionUrl = (queue: QueueSummary) =>
  [`${queue.queueBaseUrl}version`, { authorization: queue.httpAuthorization }] as const;

describe('a write of 100,000 items over the admin API', () => {
  let engine: Engine;
  let other: QueueSummary;
  beforeAll(async () => {
    engine = await startTestEngine({ dataDir: tempDir(), clockSpeed: 0 });
    other = (await admin(engine, 'POST', '/queues', { items: [{ track: { name: 'Other' } }] })).body as QueueSummary;
  });
  afterAll(() => engine.close());

  it('creates the queue while another queue answers GET /version within 250 ms every time', async () => {
    const body = itemsBody({ name: 'Created' }, BIG);
    const probe = await pinger(...versionUrl(other));
    const created = await send(engine, 'POST', '/queues', body);
    const longest = await probe.stop();
    expect(created.status).toBe(200);
    const queue = created.body as QueueSummary;
    expect(queue).toMatchObject({ name: 'Created', itemCount: BIG, queueVersion: '1' });
    const page = (await admin(engine, 'GET', `/queues/${queue.id}/items?offset=${BIG - 1}&limit=1`))
      .body as QueueItemsPage;
    expect(page.items.map((item) => [item.id, item.track.name])).toEqual([
      [`item-${BIG}`, `Big ${sampleTracks(BIG, 1)[0]!.name}`],
    ]);
    expect(longest, probe.account()).toBeLessThan(STALL_MS);
  }, 20_000);

  it('replaces the items while readers see the old queue or the new one, never a part, and nothing stalls', async () => {
    const queue = (await admin(engine, 'POST', '/queues', { items: sampleTracks(1, 10).map((track) => ({ track })) }))
      .body as QueueSummary;
    const body = itemsBody({ name: 'Replaced' }, BIG, 1, 'New');
    const versions: string[] = [];
    const player = await pinger(...versionUrl(queue), (text) =>
      versions.push((JSON.parse(text) as { queueVersion: string }).queueVersion),
    );
    const probe = await pinger(...versionUrl(other));
    const counts: number[] = [];
    let polling = true;
    const lists = (async () => {
      while (polling) {
        const list = (await admin(engine, 'GET', '/queues')).body as QueueSummary[];
        const seen = list.find((q) => q.id === queue.id)!;
        counts.push(seen.itemCount);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const replaced = await send(engine, 'PATCH', `/queues/${queue.id}`, body);
    const longest = await probe.stop();
    polling = false;
    await Promise.all([lists, player.stop()]);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: 'Replaced', itemCount: BIG, queueVersion: '2' });
    // Once, from the old to the new: the readers saw no step between.
    expect([...new Set(versions)]).toEqual(
      versions.at(-1) === '2' ? (versions[0] === '1' ? ['1', '2'] : ['2']) : ['1'],
    );
    expect(new Set(counts).size).toBeLessThanOrEqual(2);
    for (const count of counts) expect([10, BIG]).toContain(count);
    const first = (await admin(engine, 'GET', `/queues/${queue.id}/items?offset=0&limit=2`)).body as QueueItemsPage;
    expect(first.items.map((item) => item.track.name)).toEqual(sampleTracks(1, 2).map((track) => `New ${track.name}`));
    expect(longest, probe.account()).toBeLessThan(STALL_MS);
  }, 20_000);

  it('adds the items after an item of a queue while another queue answers within 250 ms', async () => {
    const queue = (await admin(engine, 'POST', '/queues', { items: sampleTracks(1, 3).map((track) => ({ track })) }))
      .body as QueueSummary;
    const body = itemsBody({ afterItemId: 'item-1' }, BIG, 1, 'Added');
    const probe = await pinger(...versionUrl(other));
    const added = await send(engine, 'POST', `/queues/${queue.id}/items`, body);
    const longest = await probe.stop();
    expect(added.status).toBe(200);
    const result = added.body as QueueEditResult;
    expect(result).toMatchObject({ itemCount: BIG + 3, queueVersion: '2' });
    expect(result.itemIds).toHaveLength(BIG);
    expect(result.itemIds![0]).toBe('item-4');
    const around = (await admin(engine, 'GET', `/queues/${queue.id}/items?offset=0&limit=2`)).body as QueueItemsPage;
    expect(around.items.map((item) => item.id)).toEqual(['item-1', 'item-4']);
    const end = (await admin(engine, 'GET', `/queues/${queue.id}/items?offset=${BIG}&limit=3`)).body as QueueItemsPage;
    expect(end.items.map((item) => item.id)).toEqual([`item-${BIG + 3}`, 'item-2', 'item-3']);
    expect(longest, probe.account()).toBeLessThan(STALL_MS);
  }, 20_000);
});

/** Rows of the queues table, shadows included, read beside the running engine. */
function queueRows(dataDir: string): { id: string; item_count: number }[] {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return db.prepare<[], { id: string; item_count: number }>('SELECT id, item_count FROM queues').all();
  } finally {
    db.close();
  }
}

/** Every item id of a queue, in order, read in pages. */
async function itemIdsOf(engine: Engine, queueId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = (await admin(engine, 'GET', `/queues/${queueId}/items?offset=${offset}&limit=1000`))
      .body as QueueItemsPage;
    ids.push(...page.items.map((item) => item.id));
    if (page.items.length < 1000) return ids;
  }
}

describe('a repro bundle of a 100,000-item queue', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await startTestEngine({ dataDir: tempDir(), clockSpeed: 0 });
  });
  afterAll(() => engine.close());

  it('is imported while another queue answers GET /version within 250 ms every time', async () => {
    const other = (await admin(engine, 'POST', '/queues', { items: [{ track: { name: 'Other' } }] }))
      .body as QueueSummary;
    const items = sampleTracks(1, BIG).map((track, i) => ({ id: `item-${i + 1}`, track }));
    const queue = {
      ref: 'big',
      sourceId: 'queue-source',
      name: 'Imported',
      container: {},
      playbackPolicies: {},
      reports: {},
      items,
    };
    const bundle = {
      format: BUNDLE_FORMAT,
      version: BUNDLE_VERSION,
      clock: { speed: 0 },
      faults: [],
      queues: [queue],
      scenario: { name: 'Nothing', steps: [{ type: 'clearFaults' }] },
    };
    const body = Buffer.from(JSON.stringify(bundle));
    const probe = await pinger(...versionUrl(other));
    const imported = await send(engine, 'POST', '/bundles/import', body);
    const longest = await probe.stop();
    expect(imported.status).toBe(200);
    const [made] = (imported.body as BundleImportResult).queues;
    expect(made).toMatchObject({ ref: 'big', name: 'Imported', itemCount: BIG });
    const page = (await admin(engine, 'GET', `/queues/${made!.id}/items?offset=${BIG - 1}&limit=1`))
      .body as QueueItemsPage;
    expect(page.items.map((item) => [item.id, item.track.name])).toEqual([
      [`item-${BIG}`, sampleTracks(BIG, 1)[0]!.name],
    ]);
    expect(longest, probe.account()).toBeLessThan(STALL_MS);
  }, 20_000);
});

describe('a big write that cannot be made', () => {
  let engine: Engine;
  const dataDir = tempDir();
  beforeAll(async () => {
    engine = await startTestEngine({ dataDir, clockSpeed: 0 });
  });
  afterAll(() => engine.close());

  it('changes nothing when an item id repeats past the first steps, and leaves no staged rows', async () => {
    const queue = (await admin(engine, 'POST', '/queues', { items: sampleTracks(1, 3).map((track) => ({ track })) }))
      .body as QueueSummary;
    const before = (await admin(engine, 'GET', `/queues/${queue.id}`)).body;
    const items = sampleTracks(1, 5 * WRITE_STEP).map((track) => ({ track }) as { id?: string; track: typeof track });
    items[3 * WRITE_STEP]!.id = 'item-2';
    items[3 * WRITE_STEP + 1]!.id = 'item-2';
    const refused = await admin(engine, 'PATCH', `/queues/${queue.id}`, { name: 'Never', items });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: { code: 'invalid_input', message: `items[${3 * WRITE_STEP + 1}].id item-2 appears twice` },
    });
    expect((await admin(engine, 'GET', `/queues/${queue.id}`)).body).toEqual(before);
    expect(queueRows(dataDir).map((row) => row.id)).toEqual([queue.id]);
    // The next item ids follow on from the queue's, as if nothing had been tried.
    const added = (await admin(engine, 'POST', `/queues/${queue.id}/items`, { items: [{ track: { name: 'Next' } }] }))
      .body as QueueEditResult;
    expect(added.itemIds).toEqual(['item-4']);
  }, 20_000);

  it('refuses one bad item among 100,000 with where it is, while another queue answers within 250 ms', async () => {
    const other = (await admin(engine, 'POST', '/queues', { items: [{ track: { name: 'Other' } }] }))
      .body as QueueSummary;
    const items = sampleTracks(1, BIG).map((track) => ({ track }));
    items[BIG - 1]!.track.durationMillis = -1;
    const body = Buffer.from(JSON.stringify({ name: 'Bad', items }));
    const probe = await pinger(...versionUrl(other));
    const refused = await send(engine, 'POST', '/queues', body);
    const longest = await probe.stop();
    expect(refused).toMatchObject({
      status: 400,
      body: {
        error: { code: 'invalid_input', message: `queues.create: /items/${BIG - 1}/track/durationMillis must be >= 0` },
      },
    });
    expect(((await admin(engine, 'GET', '/queues')).body as QueueSummary[]).map((q) => q.name)).not.toContain('Bad');
    expect(longest, probe.account()).toBeLessThan(STALL_MS);
  }, 20_000);

  it(`refuses more than ${MAX_ITEMS_PER_WRITE.toLocaleString('en-US')} items a call, saying how to go on, and changes nothing`, async () => {
    const queue = (await admin(engine, 'POST', '/queues', { items: [{ track: { name: 'Kept' } }] }))
      .body as QueueSummary;
    const before = (await admin(engine, 'GET', `/queues/${queue.id}`)).body;
    const items = Array.from({ length: MAX_ITEMS_PER_WRITE + 1 }, () => ({ track: {} }));
    for (const [method, path] of [
      ['POST', '/queues'],
      ['PATCH', `/queues/${queue.id}`],
      ['POST', `/queues/${queue.id}/items`],
    ] as const) {
      const refused = await admin(engine, method, path, { items });
      expect(refused.status, path).toBe(400);
      expect(refused.body, path).toMatchObject({
        error: {
          code: 'invalid_input',
          message:
            '100,001 items are more than one call takes (100,000): send them in several calls of up to 100,000 (create or replace with the first, add the rest with POST /admin/api/queues/{id}/items), or make sample items with POST /admin/api/queues/{id}/items/generate',
          details: { maxItems: MAX_ITEMS_PER_WRITE },
        },
      });
    }
    expect((await admin(engine, 'GET', `/queues/${queue.id}`)).body).toEqual(before);
  }, 20_000);

  it('takes two big writes of one queue in turn: the queue ends as the second left it', async () => {
    const queue = (await admin(engine, 'POST', '/queues', {})).body as QueueSummary;
    const first = send(engine, 'PATCH', `/queues/${queue.id}`, itemsBody({}, 3 * WRITE_STEP, 1, 'First'));
    const second = send(
      engine,
      'POST',
      `/queues/${queue.id}/items`,
      itemsBody({ afterItemId: null }, 2 * WRITE_STEP, 1, 'Second'),
    );
    const [one, two] = await Promise.all([first, second]);
    expect(one).toMatchObject({ status: 200, body: { itemCount: 3 * WRITE_STEP, queueVersion: '2' } });
    expect(two).toMatchObject({ status: 200, body: { itemCount: 5 * WRITE_STEP, queueVersion: '3' } });
    const ids = await itemIdsOf(engine, queue.id);
    expect(ids).toHaveLength(5 * WRITE_STEP);
    expect(new Set(ids).size).toBe(5 * WRITE_STEP);
    const page = (await admin(engine, 'GET', `/queues/${queue.id}/items?offset=${2 * WRITE_STEP - 1}&limit=2`))
      .body as QueueItemsPage;
    expect(page.items.map((item) => item.track.name?.split(' ')[0])).toEqual(['Second', 'First']);
  }, 20_000);
});

describe('a staged write cut short by a stop', () => {
  it('is never shown, and the next start deletes what it had written', async () => {
    const store = openStore({ dataDir: null }, 0);
    const options = {
      store,
      clock: { now: () => 1_800_000_000_000 },
      emit: () => undefined,
      cloudQueueUrl: () => 'http://127.0.0.1:1',
    };
    // Steps go on until the stop: the third never comes.
    let steps = 0;
    let stopped!: () => void;
    const stop = new Promise<void>((resolve) => (stopped = resolve));
    const before = new QueueModel({
      ...options,
      between: () => (++steps === 3 ? (stopped(), new Promise(() => undefined)) : Promise.resolve()),
    });
    const kept = before.create({ name: 'Kept', items: [{ track: { name: 'One' } }] });
    void before.writes.create({
      name: 'Cut short',
      items: sampleTracks(1, 10 * WRITE_STEP).map((track) => ({ track })),
    });
    await stop;
    expect(store.queues.shadows()).toHaveLength(1);
    expect(before.list().map((queue) => queue.name)).toEqual(['Kept']);

    // The next start, on the same database.
    const after = new QueueModel(options);
    await vi.waitFor(() => expect(store.queues.shadows()).toEqual([]));
    expect(after.list().map((queue) => [queue.name, queue.itemCount])).toEqual([['Kept', 1]]);
    expect(after.itemIds(kept.id)).toEqual(['item-1']);
    store.close();
  });
});

describe('edits of a queue while a staged write of it goes on', () => {
  it('wait their turn through the line, and are refused behind its back', async () => {
    const store = openStore({ dataDir: null }, 0);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = new QueueModel({
      store,
      clock: { now: () => 1_800_000_000_000 },
      emit: () => undefined,
      cloudQueueUrl: () => 'http://127.0.0.1:1',
      between: () => gate,
    });
    const queue = model.create({ items: [{ track: { name: 'Old' } }] });
    const replacing = model.writes.update(queue.id, {
      items: sampleTracks(1, 3 * WRITE_STEP).map((track) => ({ track })),
    });
    // A generation's step, say: not through the line, so refused rather than mixed in.
    expect(() => model.addItems(queue.id, [{ track: { name: 'Sneaked' } }])).toThrow(
      expect.objectContaining({ code: 'conflict' }),
    );
    const adding = model.writes.addItems(queue.id, [{ track: { name: 'After' } }]);
    const removing = model.writes.turn(queue.id, () => model.removeItems(queue.id, ['item-2']));
    expect(model.head(queue.id)!.queueVersion).toBe(1);
    release();
    expect(await replacing).toMatchObject({ itemCount: 3 * WRITE_STEP, queueVersion: '2' });
    expect(await adding).toMatchObject({
      itemCount: 3 * WRITE_STEP + 1,
      queueVersion: '3',
      itemIds: [`item-${3 * WRITE_STEP + 2}`],
    });
    expect(await removing).toMatchObject({ itemCount: 3 * WRITE_STEP, queueVersion: '4' });
    const ids = model.itemIds(queue.id);
    expect(ids.slice(0, 2)).toEqual(['item-3', 'item-4']);
    expect(ids.at(-1)).toBe(`item-${3 * WRITE_STEP + 2}`);
    expect(model.writes.turn(queue.id, () => 'now')).toBe('now');
    store.close();
  });
});
