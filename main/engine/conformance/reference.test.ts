/**
 * The console's own reference cloud queue server passes the suite (no case fails) in every shape
 * of queue it can make: empty, one item, a few, a million, policies on and off, each version
 * spelling of the base URL. The million-item run ends within its deadline: the walk stops after
 * WALK_MAX_ITEMS items and says so, which is no failure; the play, out of the run's time long
 * before the queue's end, warns that the rest was not played.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueSummary } from '../api/queue-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { caseInfos } from './suite.js';
import { checkServer, outcomes } from './testing/check.js';
import { WALK_MAX_ITEMS } from './walk.js';

let engine: Engine;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());

const tracks = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    track: { name: `Track ${i + 1}`, mediaUrl: `https://media.example/${i + 1}.mp3`, durationMillis: 200_000 },
  }));

async function queue(body: object): Promise<QueueSummary> {
  const { status, body: created } = await admin(engine, 'POST', '/queues', body);
  expect(status).toBe(200);
  return created as QueueSummary;
}

async function checkQueue(created: QueueSummary, baseUrl = created.queueBaseUrl, timeoutMs?: number) {
  const { run } = await checkServer(engine, baseUrl, created.httpAuthorization, timeoutMs);
  const failures = run.cases.filter((c) => c.outcome === 'fail').map((c) => `${c.id}: ${c.message}`);
  expect(failures).toEqual([]);
  expect(run.status).toBe('passed');
  return run;
}

// The console's own server listens on 127.0.0.1 over http: right, and out of real players' reach.
const every = (outcome: string, except: Record<string, string> = {}) => ({
  ...Object.fromEntries(caseInfos().map(({ id }) => [id, outcome])),
  'base-url.reachable': 'warn',
  ...except,
});

describe('the reference cloud queue server passes the suite', () => {
  it('with an empty queue: the cases that need an item are skipped, saying so', async () => {
    const run = await checkQueue(await queue({ items: [] }));
    const needsItem = 'skip';
    expect(outcomes(run)).toEqual(
      every('pass', {
        'item-window.size-limits': needsItem,
        'item-window.centred': needsItem,
        'item-window.ids': needsItem,
        'item-window.items': needsItem,
        'time-played.update': needsItem,
        'time-played.final': needsItem,
        'play-through': needsItem,
        'item-window.ends-everywhere': needsItem,
        'item-window.stable-identity': needsItem,
      }),
    );
    expect(run.cases.find((c) => c.id === 'item-window.queue-ends')!.message).toBe(
      'the queue is empty: its window says includesBeginningOfQueue and includesEndOfQueue true',
    );
  });

  it('with one item', async () => {
    const run = await checkQueue(await queue({ items: tracks(1) }));
    expect(outcomes(run)).toEqual(every('pass'));
    expect(run.cases.find((c) => c.id === 'item-window.queue-ends')!.message).toMatch(
      /^walked the whole queue: 1 item in 1 window, then 2 more windows at its edges/,
    );
  });

  it('with a few items, policies off (every default), at each version spelling of the base URL', async () => {
    const created = await queue({ items: tracks(40) });
    for (const version of ['v2.3', 'v2.2', 'v2.0']) {
      const run = await checkQueue(created, created.queueBaseUrl.replace('/v2.3/', `/${version}/`));
      expect(outcomes(run)).toEqual(every('pass'));
    }
  });

  it("with policies on, the queue's and the items' own", async () => {
    const policies = {
      canSkip: false,
      limitedSkips: true,
      canSkipBack: false,
      canSeek: false,
      canSkipToItem: false,
      notifyUserIntent: true,
      pauseTtlSec: 0,
    };
    const items = tracks(25).map((item, i) =>
      i % 3 === 0 ? { ...item, policies: { canSkip: true, canSeek: true } } : item,
    );
    const run = await checkQueue(
      await queue({
        items,
        playbackPolicies: policies,
        reports: { sendUpdateAfterMillis: 1_000, periodicIntervalMillis: 5_000 },
      }),
    );
    expect(outcomes(run)).toEqual(every('pass'));
    // A pauseTtlSec of 0 suspends the player the moment the last track ends: that is the end of the queue, not a pause to resume.
    expect(run.cases.find((c) => c.id === 'play-through')!.message).toMatch(
      /^played the whole queue: 25 tracks, item-1 … item-25,/,
    );
  }, 60_000);

  it('with tracks whose metadata is rich (2 KB an item): no window the suite asks for is over the 1 MB cap', async () => {
    const rich = Array.from({ length: 1_200 }, (_, i) => ({
      track: {
        name: `Track ${i + 1} ${'♪'.repeat(300)}`,
        mediaUrl: `https://media.example/${i + 1}.mp3?sig=${'s'.repeat(700)}`,
        imageUrl: `https://img.example/${i + 1}.jpg?sig=${'i'.repeat(700)}`,
        durationMillis: 200_000,
      },
    }));
    // 1,200 tracks of 200 s: the play would go on until the run's deadline; 15 s of it is enough here.
    const run = await checkQueue(await queue({ items: rich }), undefined, 15_000);
    expect(outcomes(run)).toEqual(every('pass', { 'play-through': expect.stringMatching(/^(pass|warn)$/) }));
  }, 60_000);

  it(`with 1,000,000 items, in its 25 s deadline: the walk stops after ${WALK_MAX_ITEMS.toLocaleString('en-US')} items, the play when its time is up, and each says so`, async () => {
    const created = await queue({});
    expect((await admin(engine, 'POST', `/queues/${created.id}/items/generate`, { count: 1_000_000 })).status).toBe(
      200,
    );
    const started = performance.now();
    const run = await checkQueue(created, created.queueBaseUrl, 25_000);
    const wallMs = performance.now() - started;
    // What the player did not reach in the run's time is not judged, and not passed either.
    expect(outcomes(run)).toEqual(every('pass', { 'play-through': 'warn' }));
    expect(run.cases.find((c) => c.id === 'item-window.queue-ends')!.message).toMatch(
      /^walked 20,001 items in 200 windows; then stopped going on, as the walk does after 20,000 items or 10 s; the queue goes on; the flags were right on every window it saw$/,
    );
    expect(run.cases.find((c) => c.id === 'play-through')!.message).toMatch(
      /^played [\d,]+ tracks, item-1 … item-\d+, .*then ran out of the run's time \(\d+ s for the play\) before the queue's end: what comes after item-\d+ was not played, so it is not judged/,
    );
    expect(wallMs, `a run against the 1,000,000-item queue took ${Math.round(wallMs)} ms`).toBeLessThan(30_000);
    await admin(engine, 'DELETE', `/queues/${created.id}`);
  }, 180_000);
});
