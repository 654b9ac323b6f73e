/**
 * Every retry rule of docs/contract/platform.md §7.2–§7.4 as a scenario on the engine clock: how often the player
 * tries, when (engine time of each try), and what it does when the tries run out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { playerHarness, playingHarness, type PlayerHarness } from '../testing/player-harness.js';
import { tracks, type StubOptions } from '../testing/stub-cloud-queue.js';

let h: PlayerHarness;
afterEach(() => h.close());

async function playing(options: StubOptions = {}) {
  h = await playingHarness(options);
  return h;
}

/** Engine times (ms since the first) of the requests with one reason. */
function triesOf(reason: string): number[] {
  const times = h.exchanges.filter((e) => e.reason === reason).map((e) => e.startedAt);
  return times.map((t) => t - times[0]!);
}

describe('§7.2 foreground requests (a user skip that waits for the server)', () => {
  it('retries an incomplete request 3 times, 2 s apart, then goes idle with the error reported', async () => {
    await playing({ policies: { limitedSkips: true } });
    h.stub.script('itemWindow', { drop: true }, { reason: 'skipNext', times: 4 });
    const skip = h.player.act('skipNext', 'user').catch((e: unknown) => e);
    await h.advance(6_000);
    expect(triesOf('skipNext')).toEqual([0, 2_000, 4_000, 6_000]);
    expect(await skip).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(h.player.machineState).toBe('IDLE');
    expect(h.player.snapshot().lastError?.message).toMatch(/connection failed/);
  });

  it('treats no complete response within 10 s as incomplete', async () => {
    await playing({ policies: { limitedSkips: true } });
    h.stub.script('itemWindow', { hang: true }, { reason: 'skipNext' });
    const skip = h.player.act('skipNext', 'user');
    await h.advance(9_999);
    expect(h.stub.sent('itemWindow', 'skipNext')).toHaveLength(1);
    await h.advance(1 + 2_000);
    await skip;
    expect(triesOf('skipNext')).toEqual([0, 12_000]);
    expect(h.player.status().itemId).toBe('t2');
  });

  it('retries a 503 after Retry-After clamped to 2–10 s, 3 times', async () => {
    await playing({ policies: { notifyUserIntent: true } });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '1' } }, { reason: 'skipNext' });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '5' } }, { reason: 'skipNext' });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '60' } }, { reason: 'skipNext' });
    const skip = h.player.act('skipNext', 'user');
    await h.advance(17_000);
    await skip;
    expect(triesOf('skipNext')).toEqual([0, 2_000, 7_000, 17_000]);
    expect(h.player.status().itemId).toBe('t2');
  });

  it('shows the wait for the next try while it runs: which request, which retry of how many, when, and why', async () => {
    await playing({ policies: { notifyUserIntent: true } });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '5' } }, { reason: 'skipNext' });
    const skip = h.player.act('skipNext', 'user');
    await h.advance(0);
    const first = h.exchanges.find((e) => e.reason === 'skipNext')!;
    expect(h.player.snapshot().retrying).toEqual([
      {
        id: expect.any(Number),
        endpoint: 'itemWindow',
        reason: 'skipNext',
        background: false,
        retry: 1,
        of: 3,
        at: first.startedAt + 5_000,
        failure: { message: expect.stringContaining('503'), status: 503 },
      },
    ]);
    await h.advance(5_000);
    await skip;
    expect(h.player.snapshot().retrying).toEqual([]);
  });

  it('goes idle after the third 503 retry fails', async () => {
    await playing({ policies: { notifyUserIntent: true } });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '3' } }, { reason: 'skipNext', times: 4 });
    void h.player.act('skipNext', 'user').catch(() => undefined);
    await h.advance(9_000);
    expect(h.stub.sent('itemWindow', 'skipNext')).toHaveLength(4);
    expect(h.player.machineState).toBe('IDLE');
  });

  it('never retries another server error', async () => {
    await playing({ policies: { notifyUserIntent: true } });
    h.stub.script('itemWindow', { status: 502 }, { reason: 'skipNext' });
    await h.player.act('skipNext', 'user').catch(() => undefined);
    await h.advance(60_000);
    expect(h.stub.sent('itemWindow', 'skipNext')).toHaveLength(1);
    expect(h.player.machineState).toBe('IDLE');
  });

  it('counts a success code with a malformed body as another server error', async () => {
    await playing({ policies: { notifyUserIntent: true } });
    h.stub.script(
      'itemWindow',
      { status: 200, body: '{"items": "oops"', headers: { 'content-type': 'application/json' } },
      { reason: 'skipNext' },
    );
    await h.player.act('skipNext', 'user').catch(() => undefined);
    expect(h.stub.sent('itemWindow', 'skipNext')).toHaveLength(1);
    expect(h.player.machineState).toBe('IDLE');
    expect(h.exchanges.find((e) => e.reason === 'skipNext')?.violations).toEqual([
      expect.objectContaining({ severity: 'malformed' }),
    ]);
  });
});

describe('§7.3 user-initiated commands', () => {
  it.each([
    ['incomplete', { drop: true } as const],
    ['503', { status: 503, headers: { 'retry-after': '2' } }],
    ['500', { status: 500 }],
  ])('loadCloudQueue is not retried (%s): it fails, the state stays', async (_name, answer) => {
    h = await playerHarness();
    h.stub.script('itemWindow', answer, { reason: 'load' });
    await expect(h.load()).rejects.toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    await h.advance(60_000);
    expect(h.stub.sent('itemWindow')).toHaveLength(1);
    expect(h.player.machineState).toBe('IDLE');
  });

  it('a failing GET /context fails loadCloudQueue the same way', async () => {
    h = await playerHarness();
    h.stub.script('context', { status: 500 });
    await expect(h.load()).rejects.toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER', extra: { httpStatus: 500 } });
    expect(h.stub.sent('itemWindow')).toHaveLength(0);
  });

  it('skipToItem answers at once, goes on with the window it holds, and retries in the background 10 s apart', async () => {
    await playing();
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '2' } }, { reason: 'skipToItem', times: 2 });
    h.player.skipToItem({ itemId: 't8' });
    await h.settle();
    // §7.3 "continues with current window and track data": t8 is in the window held, so it plays.
    expect(h.rows().at(-1)).toBe('skip-answered-plays');
    expect(h.player.status().itemId).toBe('t8');
    await h.advance(20_000);
    expect(triesOf('skipToItem')).toEqual([0, 10_000, 20_000]);
    // The window the retry brought is taken as a background one: t8 is not started again.
    expect(h.rows().filter((row) => row.startsWith('skip-answered'))).toHaveLength(1);
    expect(h.rows().at(-1)).toMatch(/^window-answered/);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't8' });
  });

  it.each([
    ['500', { status: 500 }],
    ['a dropped connection', { drop: true as const }],
  ])('a skipToItem whose request fails (%s) plays an item of the window held at once', async (_name, answer) => {
    await playing();
    h.stub.script('itemWindow', answer, { reason: 'skipToItem', times: 4 });
    h.player.skipToItem({ itemId: 't5' });
    await h.advance(1_000);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't5' });
    const finals = h.stub.postedReports().filter((report) => report.type === 'final');
    expect(finals.map((report) => report.id)).toEqual(['t1']);
  });

  it('a skipToItem whose request fails, to an item the player does not hold, keeps playing until a retry answers', async () => {
    await playing({ items: tracks(40, 60_000) });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '2' } }, { reason: 'skipToItem', times: 1 });
    h.player.skipToItem({ itemId: 't30' });
    await h.settle();
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't1' });
    await h.advance(10_000);
    expect(h.player.status().itemId).toBe('t30');
  });

  it('refreshCloudQueue answers at once and retries in the background', async () => {
    await playing();
    h.stub.script('itemWindow', { drop: true }, { reason: 'refresh' });
    h.player.refresh();
    await h.advance(10_000);
    expect(triesOf('refresh')).toEqual([0, 10_000]);
    expect(h.rows().at(-1)).toBe('window-answered');
  });
});

describe('§7.4 background requests', () => {
  it('retry a failed next-window request three more times, 10 s apart, then play out the window and pause', async () => {
    await playing({ items: tracks(30, 60_000) });
    h.stub.script('itemWindow', { drop: true }, { reason: 'refresh', times: 4 });
    await h.advance(8 * 60_000 + 30_000);
    expect(triesOf('refresh')).toEqual([0, 10_000, 20_000, 30_000]);
    expect(h.player.machineState).toBe('PLAYING');
    await h.advance(3 * 60_000);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PAUSED', itemId: 't11' });
    expect(h.stub.sent('itemWindow', 'queueCompleted')).toEqual([]); // draining asks for nothing more
  });

  it('carry on normally when a retry succeeds', async () => {
    await playing({ items: tracks(30, 60_000) });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '8' } }, { reason: 'refresh', times: 2 });
    await h.advance(8 * 60_000 + 20_000);
    expect(triesOf('refresh')).toEqual([0, 10_000, 20_000]);
    await h.advance(4 * 60_000);
    expect(h.player.status()).toMatchObject({ playbackState: 'PLAYBACK_STATE_PLAYING', itemId: 't13' });
  });

  it('show their wait for the next try, one retry after another, and nothing once one succeeds', async () => {
    await playing({ items: tracks(30, 60_000) });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '8' } }, { reason: 'refresh', times: 2 });
    while (h.stub.sent('itemWindow', 'refresh').length === 0) await h.advance(1_000);
    const first = h.exchanges.find((e) => e.reason === 'refresh')!;
    expect(h.player.snapshot().retrying).toEqual([
      {
        id: expect.any(Number),
        endpoint: 'itemWindow',
        reason: 'refresh',
        background: true,
        retry: 1,
        of: 3,
        at: first.startedAt + 10_000,
        failure: { message: expect.stringContaining('503'), status: 503 },
      },
    ]);
    await h.advance(first.startedAt + 10_000 - h.clock.now());
    expect(h.player.snapshot().retrying).toMatchObject([{ retry: 2, at: first.startedAt + 20_000 }]);
    await h.advance(10_000);
    expect(h.player.snapshot().retrying).toEqual([]);
    expect(triesOf('refresh')).toEqual([0, 10_000, 20_000]);
  });

  it('stop showing their wait once a new load takes the queue away (the retry is never sent)', async () => {
    await playing({ items: tracks(30, 60_000) });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '8' } }, { reason: 'refresh' });
    while (h.stub.sent('itemWindow', 'refresh').length === 0) await h.advance(1_000);
    expect(h.player.snapshot().retrying).toHaveLength(1);
    await h.load();
    expect(h.player.snapshot().retrying).toEqual([]);
    await h.advance(10_000);
    expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(1);
  });

  it('are not retried after an error the §7.2 table never retries', async () => {
    await playing({ items: tracks(30, 60_000) });
    h.stub.script('itemWindow', { status: 500 }, { reason: 'refresh' });
    await h.advance(8 * 60_000 + 60_000);
    expect(h.stub.sent('itemWindow', 'refresh')).toHaveLength(1);
    expect(h.rows()).toContain('background-exhausted');
  });

  it('retry a version poll the same way', async () => {
    await playing();
    h.stub.script('version', { status: 503 }, { times: 3 });
    await h.advance(10 * 60_000 + 30_000);
    expect(
      h.exchanges
        .filter((e) => e.endpoint === 'version')
        .map((e) => e.startedAt - h.exchanges.find((x) => x.endpoint === 'version')!.startedAt),
    ).toEqual([0, 10_000, 20_000, 30_000]);
    expect(h.rows()).not.toContain('background-exhausted');
  });
});

describe('retries of a queue that is gone', () => {
  it('are not sent once the queue is dropped (a background retry used to throw on the missing queue)', async () => {
    await playing({ policies: { limitedSkips: true } });
    h.stub.script('itemWindow', { status: 503, headers: { 'retry-after': '2' } }, { times: 20 });
    h.player.refresh(); // fails, its retry is due 10 s later
    await h.settle();
    const skip = h.player.act('skipNext', 'user').catch((error: unknown) => error); // 503 × 4: idle at 6 s
    await h.advance(15_000);
    expect(await skip).toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(h.player.machineState).toBe('IDLE');
    expect(h.exchanges.filter((e) => e.reason === 'refresh')).toHaveLength(1);
  });

  it('are not sent to the server of a queue loaded since', async () => {
    await playing();
    h.stub.script('itemWindow', { status: 503 }, { reason: 'refresh', times: 1 });
    h.player.refresh();
    await h.settle();
    await h.load({ itemId: 't3' }); // a new load: the old queue's refresh retry is not sent
    await h.advance(15_000);
    expect(h.exchanges.filter((e) => e.reason === 'refresh').map((e) => e.retry)).toEqual([0]);
  });
});
