/**
 * A fleet listener draws what it does once per track it starts (docs/fleet.md): a track reached
 * because the one before ended on its own is a track started too. It was drawn for only on a track
 * that began by buffering (the first, or one skipped to), so a run asked for a pause on every track
 * paused once per player, and `--skip-rate 0.3` skipped about 3% of the tracks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EngineClock } from '../clock/clock.js';
import { CloudQueueClient } from '../player/client.js';
import { Player } from '../player/player.js';
import { ManualWall } from '../testing/manual-wall.js';
import { StubCloudQueue, tracks } from '../testing/stub-cloud-queue.js';
import { Listener, listenerRandom, type ListenerRates } from './listener.js';

const T0 = Date.parse('2026-12-01T00:00:00Z');
const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A player with a listener of `rates`, playing 10 tracks of 60 s; its user actions counted. */
async function listening(rates: ListenerRates) {
  const stub = await new StubCloudQueue({ items: tracks(10, 60_000) }).start();
  closers.push(() => stub.close());
  const clock = new EngineClock({ wall: new ManualWall(T0), startAt: T0, speed: 0, settleTimeoutMs: 500 });
  closers.push(() => clock.close());
  const acts: string[] = [];
  const member: { listener?: Listener } = {};
  const player = new Player({
    playerId: 'fleet-1',
    groupId: 'fleet-1',
    clock,
    client: new CloudQueueClient({ playerId: 'fleet-1', clock }),
    onTransition: (record) => {
      // What the listener did, and on which item (the skip's item is the one it lands on).
      if (record.cause === 'user') acts.push(`${record.event} ${player.status().itemId}`);
      member.listener?.onTransition(record);
    },
  });
  const listener = (member.listener = new Listener(player, clock, listenerRandom(7, 1), rates, {
    queueBaseUrl: stub.baseUrl,
  }));
  closers.push(() => listener.close());
  listener.start();
  return { clock, acts, player };
}

describe('a fleet listener', () => {
  it('draws for every track it starts, also one that follows a track that ended on its own', async () => {
    const { clock, acts } = await listening({ skipRate: 0, pauseRate: 1, seekRate: 0 });
    // Ten tracks of 60 s, each paused 5–60 s once: well inside 25 minutes (the last then replayed).
    for (let minute = 0; minute < 25; minute++) await clock.advance(60_000);
    const paused = new Set(acts.filter((act) => act.startsWith('pause ')).map((act) => act.slice(6)));
    expect([...paused].sort()).toEqual(
      tracks(10)
        .map((item) => item.id)
        .sort(),
    );
  });

  it('skips at the rate asked for, over tracks that end on their own', async () => {
    const { clock, acts } = await listening({ skipRate: 0.5, pauseRate: 0, seekRate: 0 });
    for (let minute = 0; minute < 15; minute++) await clock.advance(60_000);
    const skips = acts.filter((act) => act.startsWith('skipNext ')).length;
    // Seeded: about half of the ten tracks skipped, not only those reached by a skip.
    expect(skips).toBeGreaterThanOrEqual(3);
    expect(skips).toBeLessThanOrEqual(8);
  });
});
