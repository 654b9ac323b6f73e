/**
 * A player's saved record keeps its window apart (migration 018): the record is written with every
 * change, the window only when the player holds another one, and a restart puts them together. The
 * record stays the size of a window: the player keeps audio for its window's items alone.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EngineClock } from '../clock/clock.js';
import { EventBus } from '../events/bus.js';
import { seedDemoData } from '../household/seed.js';
import { openStore, type Store } from '../store/store.js';
import { ManualWall } from '../testing/manual-wall.js';
import { StubCloudQueue, tracks } from '../testing/stub-cloud-queue.js';
import { PlayerRegistry } from './registry.js';
import type { SavedPlayer, StoredPlayer } from './saved.js';
import type { ItemWindowResponse } from './wire.js';

const closers: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const OWN = 'http://127.0.0.1:1';

function engineParts(store: Store) {
  const clock = new EngineClock({ wall: new ManualWall(), speed: 0, settleTimeoutMs: 500 });
  const warned: string[] = [];
  const registry = new PlayerRegistry({
    store,
    clock,
    bus: new EventBus(),
    warnings: { warn: (_source, message) => warned.push(message) },
  });
  closers.push(
    () => clock.close(),
    () => registry.close(),
  );
  registry.resume(OWN);
  return { store, clock, registry, warned };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A store whose kitchen player loaded an 8-track queue, its registry closed (a clean stop). */
async function loadedThenStopped() {
  const store = openStore({ dataDir: null });
  closers.push(() => store.close());
  seedDemoData(store, 0);
  const { registry } = engineParts(store);
  const stub = await new StubCloudQueue({ items: tracks(8), policies: {} }).start();
  closers.push(() => stub.close());
  const player = registry.forGroup('group-kitchen')!;
  player.createSession('app', 'ctx');
  await player.load({ queueBaseUrl: stub.baseUrl, playOnCompletion: true });
  const before = registry.detail(player);
  registry.close();
  return { store, player, before };
}

describe("a player's saved window", () => {
  it('is written when the player holds another window, not with every change; a restart puts it back', async () => {
    const store = openStore({ dataDir: null });
    closers.push(() => store.close());
    seedDemoData(store, 0);
    const { clock, registry } = engineParts(store);
    const stub = await new StubCloudQueue({ items: tracks(40, 60_000), policies: {} }).start();
    closers.push(() => stub.close());
    const saves = vi.spyOn(store.playerSaved, 'save');

    const player = registry.forGroup('group-kitchen')!;
    player.createSession('app', 'ctx');
    await player.load({ queueBaseUrl: stub.baseUrl, playOnCompletion: true });
    // Twenty one-minute tracks: reports, polls and, near each window's edge, the next window.
    await clock.advance(20 * 60_000);
    await nextTurn();

    const windows = saves.mock.calls.map(([, , window]) => window);
    const written = windows.filter((window) => window !== undefined);
    expect(saves.mock.calls.length).toBeGreaterThan(20);
    // At least the first window and one for each window asked near an edge, and each one once.
    expect(written.length).toBeGreaterThanOrEqual(3);
    expect(written.length).toBeLessThan(saves.mock.calls.length / 4);
    const texts = written.map((window) => JSON.stringify(window));
    expect(new Set(texts).size).toBe(texts.length);

    // The record as stored holds no window; the window beside it is the one the player holds.
    const held = player.save();
    // The audio it keeps is of its window's items alone, not of every track played since the load.
    const inWindow = new Set(held.playback!.window.items.map((item) => item.id));
    expect(held.playback!.fetched.length).toBeGreaterThan(0);
    expect(held.playback!.fetched.filter((id) => !inWindow.has(id))).toEqual([]);
    const stored = store.playerSaved.get(player.id)!;
    expect((stored.record as SavedPlayer).playback).not.toHaveProperty('window');
    expect(stored.window).toEqual(held.playback!.window);

    // A restart (the same store, a new registry) finds the player where it was, its window with it.
    const before = registry.detail(player);
    registry.close();
    const restarted = engineParts(store).registry;
    const after = restarted.detail(restarted.forGroup('group-kitchen')!);
    expect(after).toMatchObject({
      state: before.state,
      itemId: before.itemId,
      positionMillis: before.positionMillis,
      window: before.window,
    });
  });

  it('takes up a record saved before, with its window inside it', async () => {
    const { store, player, before } = await loadedThenStopped();
    // As the console wrote it before migration 018: one record, its window inside, nothing beside.
    store.playerSaved.delete(player.id);
    store.playerSaved.save(player.id, {
      groupId: 'group-kitchen',
      savedAt: 0,
      ownCloudQueue: OWN,
      record: player.save(),
    });
    expect(store.playerSaved.get(player.id)!.window).toBeUndefined();

    const { registry } = engineParts(store);
    expect(registry.detail(registry.forGroup('group-kitchen')!)).toMatchObject({
      state: before.state,
      itemId: before.itemId,
      window: before.window,
    });
  });

  it('starts a player idle from a record whose window was lost', async () => {
    const { store } = await loadedThenStopped();
    store.db.prepare('DELETE FROM player_saved_windows').run();

    const { registry, warned } = engineParts(store);
    expect(registry.detail(registry.forGroup('group-kitchen')!)).toMatchObject({ state: 'IDLE' });
    expect(warned).toEqual([expect.stringContaining('the window it held was lost')]);
  });

  it('keeps the record and window it had when a save with a new window fails, and writes both next time', async () => {
    const store = openStore({ dataDir: null });
    closers.push(() => store.close());
    seedDemoData(store, 0);
    const { clock, registry, warned } = engineParts(store);
    const stub = await new StubCloudQueue({ items: tracks(40, 60_000), policies: {} }).start();
    closers.push(() => stub.close());
    const player = registry.forGroup('group-kitchen')!;
    player.createSession('app', 'ctx');
    await player.load({ queueBaseUrl: stub.baseUrl, playOnCompletion: true });
    await nextTurn();
    const first = store.playerSaved.get(player.id)!;

    // Every window write fails from here: saves with a new window fail whole, the rest go through.
    store.db.exec(
      "CREATE TRIGGER no_windows BEFORE UPDATE ON player_saved_windows BEGIN SELECT RAISE(ABORT, 'no windows'); END",
    );
    await clock.advance(12 * 60_000);
    await nextTurn();
    expect(warned.some((message) => message.includes('no windows'))).toBe(true);
    const held = player.save().playback!.window;
    expect(held).not.toEqual(first.window);
    // What is stored is a record and the window it was saved with, never a newer record with an older window.
    const during = store.playerSaved.get(player.id)!;
    expect(during.window).toEqual(first.window);
    const playing = (during.record as StoredPlayer).playback!.track.item.id;
    expect((during.window as ItemWindowResponse).items.map((item) => item.id)).toContain(playing);

    store.db.exec('DROP TRIGGER no_windows');
    player.setVolume(35);
    await nextTurn();
    expect(store.playerSaved.get(player.id)!.window).toEqual(held);
    registry.close();
    const restarted = engineParts(store).registry;
    expect(restarted.detail(restarted.forGroup('group-kitchen')!)).toMatchObject({
      volume: 35,
      window: registry.detail(player).window,
    });
  });
});
