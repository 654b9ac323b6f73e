/**
 * durationPlayedMillis and positions exact to the engine clock (docs/contract/console.md §6): a
 * track played for exactly N engine ms reports exactly N, whether the clock jumps (`advance`) or
 * runs at speed 1 on real timers, which fire late.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EngineClock } from '../clock/clock.js';
import type { WallClock } from '../clock/wall.js';
import { playingHarness, type PlayerHarness } from '../testing/player-harness.js';
import { StubCloudQueue, tracks } from '../testing/stub-cloud-queue.js';
import { CloudQueueClient } from './client.js';
import { Player } from './player.js';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const reportsOf = (stub: StubCloudQueue, id: string) =>
  stub
    .postedReports()
    .filter((r) => r.id === id)
    .map((r) => [r.type, r.durationPlayedMillis, r.positionMillis, r.positionMillisAtSegmentStart]);

describe('exact report times', () => {
  it('with advance: a 25,000 ms track reports 25,000, its update exactly when due', async () => {
    const h: PlayerHarness = await playingHarness({
      items: tracks(2, 25_000),
      reports: { sendUpdateAfterMillis: 10_000 },
    });
    closers.push(() => h.close());
    await h.advance(25_000);
    await h.settle();
    expect(reportsOf(h.stub, 't1')).toEqual([
      ['update', 10_000, 10_000, 0],
      ['final', 25_000, 25_000, 0],
    ]);
  });

  it('at speed 1 on real timers that fire 16 ms late: still exactly N', async () => {
    const N = 1_500;
    const stub = await new StubCloudQueue({ items: tracks(2, N), reports: { sendUpdateAfterMillis: 1_000 } }).start();
    closers.push(() => stub.close());
    // Real time, with every timer running 16 ms after it was due, as a busy event loop makes it.
    const lateWall: WallClock = {
      now: () => Date.now(),
      setTimeout: (callback, delayMs) => setTimeout(callback, delayMs + 16),
      clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
    };
    const clock = new EngineClock({ wall: lateWall, speed: 1 });
    closers.push(() => clock.close());
    const client = new CloudQueueClient({ playerId: 'player-real-time', clock });
    const player = new Player({ playerId: 'player-real-time', groupId: 'group-real-time', clock, client });
    closers.push(() => player.close());
    player.createSession('com.example.app', 'timing');
    await player.load({ queueBaseUrl: stub.baseUrl, httpAuthorization: 'Bearer t', playOnCompletion: true });
    const deadline = Date.now() + 10_000;
    while (!stub.postedReports().some((r) => r.id === 't1' && r.type === 'final') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reportsOf(stub, 't1')).toEqual([
      ['update', 1_000, 1_000, 0],
      ['final', N, N, 0],
    ]);
  });
});
