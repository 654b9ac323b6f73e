/**
 * What players' requests can make the cloud queue server keep is bounded (docs/contract/console.md §9):
 * nothing for a request without the queue's token, the newest players per queue, each id cut to
 * a length, reports capped per request and per queue. Each test is the attack that grew the
 * engine without limit: 2,000 unauthenticated requests with long ids (+74 MB, a 16 MB activity
 * answer), 100 report posts of 1 MB (+130 MB on disk).
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueActivityView, QueueItemsPage, QueueSummary, TimePlayedRecordView } from '../api/queue-types.js';
import type { Engine } from '../index.js';
import { transactor } from '../store/database.js';
import { openStore } from '../store/store.js';
import { TimePlayedRepository, MAX_REPORTS_PER_QUEUE } from '../store/repositories/time-played.js';
import { admin, rawRequest, startTestEngine } from '../testing/http.js';
import { emptyQueueRow } from '../testing/queue-rows.js';
import { MAX_PLAYERS_PER_QUEUE, MAX_RECORDED_TEXT } from './activity.js';
import { MAX_REPORTS_PER_POST, MAX_REPORT_BYTES, MAX_TIME_PLAYED_BODY_BYTES } from './time-played.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());

async function createQueue(): Promise<QueueSummary> {
  const items = Array.from({ length: 3 }, (_, i) => ({ track: { name: `Track ${i + 1}` } }));
  return (await admin(engine, 'POST', '/queues', { items })).body as QueueSummary;
}

const activityOf = async (queue: QueueSummary) =>
  (await admin(engine, 'GET', `/queues/${queue.id}/activity`)).body as QueueActivityView;

const report = (itemId = 'item-1', extra: Record<string, unknown> = {}) => ({
  id: itemId,
  mediaUrl: 'https://media.example.com/1.mp3',
  queueVersion: '1',
  durationPlayedMillis: 30_000,
  timeSincePlaybackMillis: 31_000,
  positionMillis: 30_000,
  positionMillisAtSegmentStart: 0,
  type: 'update',
  ...extra,
});

/** `count` requests at a time, `at once` of them in flight. */
async function inParallel(count: number, atOnce: number, send: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      while (next < count) await send(next++);
    }),
  );
}

function post(queue: QueueSummary, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${queue.queueBaseUrl}timePlayed`, {
    method: 'POST',
    headers: { authorization: queue.httpAuthorization, 'content-type': 'application/json', ...headers },
    body,
  });
}

describe('the activity a queue keeps of its players', () => {
  it('keeps nothing of 2,000 requests without a valid token, whatever X-Player-Id they carry', async () => {
    const queue = await createQueue();
    const tokens = [null, 'made-up', `Basic ${queue.accessToken}`];
    await inParallel(2_000, 16, async (i) => {
      const headers: Record<string, string> = {
        'x-player-id': randomBytes(4_096).toString('hex'),
        'x-request-id': randomBytes(2_048).toString('hex'),
      };
      const token = tokens[i % tokens.length];
      if (token) headers.authorization = token.startsWith('Basic') ? token : `Bearer ${token}`;
      const path = ['context', 'version', 'itemWindow?reason=load'][i % 3];
      const answer = await fetch(`${queue.queueBaseUrl}${path}`, { headers });
      expect(answer.status).toBe(401);
      await answer.arrayBuffer();
    });
    // A POST without a token, with a body: refused before the body is read; nothing stored.
    expect(
      (
        await post(queue, JSON.stringify({ items: [report()] }), {
          authorization: 'Bearer made-up',
          'x-player-id': 'intruder',
        })
      ).status,
    ).toBe(401);
    expect(await activityOf(queue)).toEqual({ queueId: queue.id, players: [] });
    expect((await admin(engine, 'GET', `/queues/${queue.id}/reports`)).body).toEqual([]);
  });

  it(`keeps the newest ${MAX_PLAYERS_PER_QUEUE} of 200 players with the token, each id cut to ${MAX_RECORDED_TEXT} characters`, async () => {
    const queue = await createQueue();
    const idOf = (i: number) => `player-${String(i).padStart(3, '0')}-${'x'.repeat(5_000)}`;
    // One at a time: "newest" is the order they came in.
    for (let i = 0; i < 200; i++) {
      const answer = await fetch(`${queue.queueBaseUrl}itemWindow?reason=load&queueVersion=${'9'.repeat(3_000)}`, {
        headers: { authorization: queue.httpAuthorization, 'x-player-id': idOf(i), 'x-request-id': 'r'.repeat(3_000) },
      });
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    }
    // The oldest heard from again becomes the newest.
    await fetch(`${queue.queueBaseUrl}version`, {
      headers: { authorization: queue.httpAuthorization, 'x-player-id': idOf(0) },
    });
    const activity = await activityOf(queue);
    expect(activity.players).toHaveLength(MAX_PLAYERS_PER_QUEUE);
    const kept = new Set(activity.players.map((player) => player.playerId));
    const cut = (id: string) => `${id.slice(0, MAX_RECORDED_TEXT)}…`;
    expect(kept).toEqual(
      new Set(
        [0, ...Array.from({ length: MAX_PLAYERS_PER_QUEUE - 1 }, (_, k) => 200 - MAX_PLAYERS_PER_QUEUE + 1 + k)].map(
          (i) => cut(idOf(i)),
        ),
      ),
    );
    // Player 0 came back after it had gone, with a /version call: it starts over, without a window.
    for (const player of activity.players.filter((p) => p.playerId !== cut(idOf(0)))) {
      expect(player.itemWindow?.requestId).toBe(cut('r'.repeat(3_000)));
      expect(player.itemWindow?.queueVersion).toBe(cut('9'.repeat(3_000)));
    }
    // The whole answer stays small: ~50 players of a few hundred bytes each.
    expect(JSON.stringify(activity).length).toBeLessThan(100_000);
  });
});

describe('timePlayed reports', () => {
  it('refuses 100 posts of 1 MB, each with a 413 naming the cap, and stores none of them', async () => {
    const queue = await createQueue();
    const huge = JSON.stringify({ items: [report('item-1', { padding: 'x'.repeat(1024 * 1024) })] });
    await inParallel(100, 4, async () => {
      const answer = await post(queue, huge, { 'x-player-id': 'flooder' });
      expect(answer.status).toBe(413);
      const body = (await answer.json()) as { error: { message: string; errors: { reason: string }[] } };
      expect(body.error.message).toBe(
        `the body is larger than ${MAX_TIME_PLAYED_BODY_BYTES} bytes, the most this server takes in one request; send fewer reports per request`,
      );
      expect(body.error.errors[0]!.reason).toBe('requestTooLarge');
    });
    expect((await admin(engine, 'GET', `/queues/${queue.id}/reports`)).body).toEqual([]);
  });

  it('refuses more reports in one post than the cap, and a report larger than its cap, naming each cap', async () => {
    const queue = await createQueue();
    const many = await post(
      queue,
      JSON.stringify({ items: Array.from({ length: MAX_REPORTS_PER_POST + 1 }, () => report()) }),
    );
    expect(many.status).toBe(400);
    expect(((await many.json()) as { error: { message: string } }).error.message).toBe(
      `items holds ${MAX_REPORTS_PER_POST + 1} reports, more than the ${MAX_REPORTS_PER_POST} one request may carry; send them in several`,
    );
    const large = await post(
      queue,
      JSON.stringify({ items: [report(), report('item-1', { padding: 'x'.repeat(MAX_REPORT_BYTES) })] }),
    );
    expect(large.status).toBe(400);
    expect(((await large.json()) as { error: { message: string } }).error.message).toMatch(
      new RegExp(`^items\\[1\\] takes \\d+ bytes as JSON, more than the ${MAX_REPORT_BYTES} a report may$`),
    );
    // Nothing of a refused post is kept, not even its sound reports.
    expect((await admin(engine, 'GET', `/queues/${queue.id}/reports`)).body).toEqual([]);
    // At the cap, it goes.
    expect(
      (await post(queue, JSON.stringify({ items: Array.from({ length: MAX_REPORTS_PER_POST }, () => report()) })))
        .status,
    ).toBe(204);
  });

  it(`keeps a queue's newest ${MAX_REPORTS_PER_QUEUE.toLocaleString('en-US')} reports, however many come`, async () => {
    const queue = await createQueue();
    const posts = MAX_REPORTS_PER_QUEUE / MAX_REPORTS_PER_POST + 1;
    // The first post's reports are of item-1, every later one's of item-2: the first are the oldest.
    for (let i = 0; i < posts; i++) {
      const items = Array.from({ length: MAX_REPORTS_PER_POST }, () => report(i === 0 ? 'item-1' : 'item-2'));
      expect((await post(queue, JSON.stringify({ items }))).status).toBe(204);
    }
    const kept = (await admin(engine, 'GET', `/queues/${queue.id}/reports?limit=10000`)).body as TimePlayedRecordView[];
    expect(kept).toHaveLength(MAX_REPORTS_PER_QUEUE);
    expect(new Set(kept.map((r) => r.itemId))).toEqual(new Set(['item-2']));
    const page = (await admin(engine, 'GET', `/queues/${queue.id}/items`)).body as QueueItemsPage;
    expect(page.items.map((item) => item.reports?.count ?? 0)).toEqual([0, MAX_REPORTS_PER_QUEUE, 0]);
  });
});

describe('a report whose body arrives while a big write replaces its queue', () => {
  it('is kept with the queue, not with the row the write retired', async () => {
    const queue = await createQueue();
    const body = JSON.stringify({ items: [report('item-1')] });
    // More than one step of items: written beside the queue, then published as a new row.
    const items = Array.from({ length: 1_500 }, (_, i) => ({ track: { name: `New ${i}` } }));
    // The headers and a first part now (the queue is looked up), the rest once the write has published.
    const answered = await rawRequest(`${queue.queueBaseUrl}timePlayed`, {
      method: 'POST',
      headers: {
        authorization: queue.httpAuthorization,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      },
      body: [body.slice(0, 5), body.slice(5)],
      between: async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect((await admin(engine, 'PATCH', `/queues/${queue.id}`, { items })).status).toBe(200);
      },
    });
    expect(answered.status).toBe(204);
    const kept = (await admin(engine, 'GET', `/queues/${queue.id}/reports`)).body as TimePlayedRecordView[];
    expect(kept.map((r) => r.itemId)).toEqual(['item-1']);
  });
});

describe('the report repository', () => {
  it('never holds more than its cap for a queue, and leaves other queues alone', () => {
    const store = openStore({ dataDir: null });
    const repo = new TimePlayedRepository(store.db, 5);
    const [a, b] = ['qa', 'qb'].map((id) => store.queues.create(emptyQueueRow(id)).key);
    const one = (n: number) => ({ itemId: `item-${n}`, playerId: null, receivedAt: n, type: 'update', report: { n } });
    repo.addAll(b!, [one(0)]);
    for (let n = 1; n <= 12; n++) {
      repo.addAll(a!, [one(n), one(n + 100)]);
      expect(repo.count(a!)).toBe(Math.min(2 * n, 5));
    }
    expect(repo.recent(a!, 100).map((r) => r.receivedAt)).toEqual([112, 12, 111, 11, 110]);
    expect(repo.count(b!)).toBe(1);
    store.close();
  });

  it('trims only a POST that takes the queue past its cap, from the old end, and holds the cap through a rollback', () => {
    const store = openStore({ dataDir: null });
    const repo = new TimePlayedRepository(store.db, 5);
    const key = store.queues.create(emptyQueueRow('q')).key;
    const one = (n: number) => ({ itemId: `item-${n}`, playerId: null, receivedAt: n, type: 'update', report: { n } });
    // Which trim ran: the walk from the newest end (the cap's boundary) or the drop of the oldest.
    const ran = { walks: 0, drops: 0 };
    const spy = (name: 'trimStmt' | 'dropOldestStmt', counter: keyof typeof ran) => {
      const statement = (repo as unknown as Record<string, { run: (...args: unknown[]) => unknown }>)[name]!;
      const run = statement.run.bind(statement);
      statement.run = (...args) => (ran[counter]++, run(...args));
    };
    spy('trimStmt', 'walks');
    spy('dropOldestStmt', 'drops');
    // Below the cap, no trim at all.
    for (let n = 1; n <= 5; n++) repo.addAll(key, [one(n)]);
    expect(ran).toEqual({ walks: 0, drops: 0 });
    // At the cap, each POST drops as many of the oldest as it brought: no walk past the newest 5.
    repo.addAll(key, [one(6)]);
    repo.addAll(key, [one(7), one(8)]);
    expect(ran).toEqual({ walks: 0, drops: 2 });
    expect(repo.recent(key, 100).map((r) => r.receivedAt)).toEqual([8, 7, 6, 5, 4]);

    // A transaction around the POST's rolls back: its reports and its trim are gone alike. Inside
    // another's transaction the POST trims from the newest end, right whatever the count.
    const transact = transactor(store.db);
    expect(() =>
      transact(() => {
        repo.addAll(key, [one(9), one(10)]);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(ran).toEqual({ walks: 1, drops: 2 });
    expect(repo.recent(key, 100).map((r) => r.receivedAt)).toEqual([8, 7, 6, 5, 4]);
    for (let n = 11; n <= 14; n++) {
      repo.addAll(key, [one(n)]);
      expect(repo.count(key)).toBe(5);
    }
    expect(repo.recent(key, 100).map((r) => r.receivedAt)).toEqual([14, 13, 12, 11, 8]);
    expect(ran).toEqual({ walks: 1, drops: 6 });
    store.close();
  });

  it("keeps exactly each queue's newest reports up to its cap, whatever the posts and rollbacks (property)", () => {
    const post = fc.record({
      queue: fc.integer({ min: 0, max: 2 }),
      size: fc.integer({ min: 1, max: 9 }),
      // Inside another transaction, which then commits or rolls back.
      wrapped: fc.constantFrom('alone', 'committed', 'rolledBack'),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(post, { maxLength: 60 }), (cap, posts) => {
        const store = openStore({ dataDir: null });
        try {
          const repo = new TimePlayedRepository(store.db, cap);
          const transact = transactor(store.db);
          const keys = ['a', 'b', 'c'].map((id) => store.queues.create(emptyQueueRow(id)).key);
          const model: number[][] = [[], [], []];
          let n = 0;
          for (const { queue, size, wrapped } of posts) {
            const records = Array.from({ length: size }, () => n++).map((at) => ({
              itemId: 'item',
              playerId: null,
              receivedAt: at,
              type: 'update',
              report: {},
            }));
            const add = () => repo.addAll(keys[queue]!, records);
            if (wrapped === 'alone') add();
            else if (wrapped === 'committed') transact(add);
            else
              expect(() =>
                transact(() => {
                  add();
                  throw new Error('rolled back');
                }),
              ).toThrow('rolled back');
            if (wrapped !== 'rolledBack')
              model[queue] = [...model[queue]!, ...records.map((r) => r.receivedAt)].slice(-cap);
            for (const [q, key] of keys.entries())
              expect(repo.recent(key, 1_000).map((r) => r.receivedAt)).toEqual([...model[q]!].reverse());
          }
        } finally {
          store.close();
        }
      }),
      { numRuns: 150 },
    );
  });
});
