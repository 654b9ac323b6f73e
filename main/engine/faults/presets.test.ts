/**
 * Each preset, applied to a playing player, does what its description promises ("404
 * on itemWindow" said the player goes idle, while during a load the load failed and the player
 * played on). The rules are applied in the player's client (target `player`, as the Faults page
 * offers for every preset), which fails the request the same way the console's server would, and
 * the request each rule waits for is sent at once with "Trigger now" (player/trigger.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FaultPreset } from '../api/commands/faults.js';
import type { PlaybackPolicies } from '../api/queue-types.js';
import { EventBus } from '../events/bus.js';
import { BUFFERING_MS } from '../player/audio.js';
import { fetchTransport } from '../player/client.js';
import { openStore } from '../store/store.js';
import { playerHarness, type PlayerHarness } from '../testing/player-harness.js';
import { tracks } from '../testing/stub-cloud-queue.js';
import { faultingTransport } from './player-transport.js';
import { FAULT_PRESETS } from './presets.js';
import { FaultRegistry } from './registry.js';

let h: PlayerHarness;
let faults: FaultRegistry;
afterEach(() => h?.close());

/** A player playing 30 tracks of 20 s, with the preset's rule live in its client. */
async function playingWith(presetId: string, policies: Partial<PlaybackPolicies> = {}): Promise<PlayerHarness> {
  const store = openStore({ dataDir: null });
  h = await playerHarness(
    { items: tracks(30, 20_000), policies },
    {
      transport: (clock) => {
        faults = new FaultRegistry({ repo: store.faultRules, clock, bus: new EventBus() });
        return faultingTransport(fetchTransport, faults, clock);
      },
    },
  );
  await h.load();
  await h.advance(BUFFERING_MS);
  expect(h.player.machineState).toBe('PLAYING');
  const preset = presetNamed(presetId);
  faults.add({ ...preset.rule, target: 'player' });
  return h;
}

function presetNamed(id: string): FaultPreset {
  const preset = FAULT_PRESETS.find((p) => p.id === id);
  if (!preset) throw new Error(`no preset ${id}`);
  return preset;
}

const tries = (reason: string) => h.exchanges.filter((e) => e.reason === reason);

describe('every preset does what its description says, to a playing player', () => {
  it('has a test below for each preset', () => {
    expect(FAULT_PRESETS.map((p) => p.id).sort()).toEqual(
      [
        '503-storm',
        '503-item-window-refresh',
        '404-item-window-skip',
        '404-item-window-refresh',
        '404-item-window-load',
        'refresh-timeout',
        '500-on-load',
        'version-drop',
        'skip-limit',
        'slow-server',
        'malformed-refresh',
      ].sort(),
    );
  });

  it('503 storm: a background request is retried 3 times, 10 s apart, then the window plays out and the player pauses', async () => {
    await playingWith('503-storm');
    expect(presetNamed('503-storm').description).toMatch(
      /retried 3 times, 10 s apart, then the player plays out its window and pauses/,
    );
    await h.player.trigger('nextWindow');
    await h.advance(30_000);
    expect(tries('refresh').map((e) => [e.status, e.startedAt - tries('refresh')[0]!.startedAt])).toEqual([
      [503, 0],
      [503, 10_000],
      [503, 20_000],
      [503, 30_000],
    ]);
    expect(h.player.machineState).toBe('PLAYING');
    await h.advance(11 * 20_000);
    expect(h.player.machineState).toBe('PAUSED');
    expect(h.rows()).toContain('background-exhausted');
  });

  it('503 on itemWindow (refresh): only the next window fails, retried 3 times 10 s apart, then the window plays out and the player pauses', async () => {
    await playingWith('503-item-window-refresh');
    expect(presetNamed('503-item-window-refresh').description).toMatch(
      /retried 3 times, 10 s apart, then the player plays out its window and pauses/,
    );
    await h.player.trigger('refresh');
    await h.player.trigger('versionPoll');
    await h.advance(30_000);
    expect(tries('refresh').map((e) => [e.status, e.startedAt - tries('refresh')[0]!.startedAt])).toEqual([
      [503, 0],
      [503, 10_000],
      [503, 20_000],
      [503, 30_000],
    ]);
    // Scoped to the request it names: the version poll is answered.
    expect(h.exchanges.filter((e) => e.endpoint === 'version').every((e) => e.status === 200)).toBe(true);
    await h.advance(11 * 20_000);
    expect(h.player.machineState).toBe('PAUSED');
    expect(h.rows()).toContain('background-exhausted');
  });

  it('503 storm: a user\u2019s skip that asks the server is retried 3 times, 3 s apart, then the player goes idle', async () => {
    await playingWith('503-storm', { notifyUserIntent: true });
    expect(presetNamed('503-storm').description).toMatch(
      /skip that asks the server is retried 3 times, 3 s apart, then the player goes idle/,
    );
    await h.player.trigger('skipNext');
    await h.advance(9_000);
    expect(tries('skipNext').map((e) => [e.status, e.startedAt - tries('skipNext')[0]!.startedAt])).toEqual([
      [503, 0],
      [503, 3_000],
      [503, 6_000],
      [503, 9_000],
    ]);
    expect(h.player.machineState).toBe('IDLE');
  });

  it('503 storm: a load fails at once', async () => {
    await playingWith('503-storm');
    await expect(h.load({ itemId: undefined })).rejects.toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(h.player.machineState).toBe('PLAYING');
  });

  it('404 on itemWindow (skipNext): the player clears its queue and goes idle', async () => {
    await playingWith('404-item-window-skip', { limitedSkips: true });
    await h.player.trigger('skipNext');
    await h.settle();
    expect(tries('skipNext').map((e) => e.status)).toEqual([404]);
    expect(h.player.machineState).toBe('IDLE');
    expect(h.player.snapshot().window).toBeNull();
    expect(h.rows()).toContain('window-not-found');
  });

  it('404 on itemWindow (refresh): the player clears its queue and goes idle', async () => {
    await playingWith('404-item-window-refresh');
    await h.player.trigger('refresh');
    await h.settle();
    expect(tries('refresh').at(-1)!.status).toBe(404);
    expect(h.player.machineState).toBe('IDLE');
    expect(h.player.snapshot().window).toBeNull();
  });

  it('404 on itemWindow during load: the command fails, nothing is retried, and the playing player plays on', async () => {
    await playingWith('404-item-window-load');
    const playing = h.player.status().itemId;
    // Without track metadata the load's first window asks reason=load (docs/contract/platform.md §4.3).
    await expect(h.load({ itemId: 't5' })).rejects.toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(
      tries('load')
        .slice(1)
        .map((e) => e.status),
    ).toEqual([404]);
    await h.advance(1_000);
    expect(h.player.machineState).toBe('PLAYING');
    expect(h.player.status().itemId).toBe(playing);
    expect(h.rows()).toContain('load-failed');
    expect(h.rows()).not.toContain('window-not-found');
  });

  it('timeout on the background refresh: four tries given up after 10 s each, then the window plays out and the player pauses', async () => {
    await playingWith('refresh-timeout');
    await h.player.trigger('nextWindow');
    await h.advance(40_000);
    expect(tries('refresh').map((e) => e.failure?.kind ?? 'ok')).toEqual([
      'incomplete',
      'incomplete',
      'incomplete',
      'incomplete',
    ]);
    expect(h.player.machineState).toBe('PLAYING');
    await h.advance(11 * 20_000);
    expect(h.player.machineState).toBe('PAUSED');
    expect(h.player.currentSession).not.toBeNull();
  });

  it('500 on load: the command fails with ERROR_CLOUD_QUEUE_SERVER, nothing is retried, the playing player plays on', async () => {
    await playingWith('500-on-load');
    await expect(h.load({ itemId: 't5' })).rejects.toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(
      tries('load')
        .slice(1)
        .map((e) => e.status),
    ).toEqual([500]);
    await h.advance(20_000);
    expect(h.player.machineState).toBe('PLAYING');
  });

  it('incomplete request on the version poll: retried 10 s later, playback goes on', async () => {
    await playingWith('version-drop');
    await h.player.trigger('versionPoll');
    await h.advance(10_000);
    const polls = h.exchanges.filter((e) => e.endpoint === 'version');
    expect(polls.map((e) => [e.failure?.kind ?? e.status, e.startedAt - polls[0]!.startedAt])).toEqual([
      ['incomplete', 0],
      [200, 10_000],
    ]);
    expect(h.player.machineState).toBe('PLAYING');
  });

  it('403 skip limit: the skip is refused and the track plays on', async () => {
    await playingWith('skip-limit', { limitedSkips: true });
    const playing = h.player.status().itemId;
    await h.player.trigger('skipNext');
    await h.settle();
    expect(tries('skipNext').map((e) => e.status)).toEqual([403]);
    expect(h.player.machineState).toBe('PLAYING');
    expect(h.player.status().itemId).toBe(playing);
    expect(h.rows()).toContain('skip-refused');
  });

  it('slow server: nothing fails, a skip that waits for the server takes 2 s longer', async () => {
    await playingWith('slow-server', { notifyUserIntent: true });
    const playing = h.player.status().itemId;
    await h.player.trigger('skipNext');
    await h.advance(1_999);
    expect(h.player.status().itemId).toBe(playing);
    await h.advance(1);
    expect(h.player.status().itemId).not.toBe(playing);
    expect(tries('skipNext').map((e) => [e.status, e.durationMs])).toEqual([[200, 2_000]]);
  });

  it('malformed itemWindow body on the refresh: never retried, the window plays out, the player pauses, a violation is noted', async () => {
    await playingWith('malformed-refresh');
    await h.player.trigger('nextWindow');
    await h.settle();
    expect(tries('refresh')).toHaveLength(1);
    expect(tries('refresh')[0]!.violations[0]).toMatchObject({ severity: 'malformed' });
    await h.advance(30_000);
    expect(tries('refresh')).toHaveLength(1);
    await h.advance(11 * 20_000);
    expect(h.player.machineState).toBe('PAUSED');
  });
});
