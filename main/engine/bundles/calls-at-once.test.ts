/**
 * Calls made at once, before the requests of the one before them were answered, replay as they
 * were made (audit X10). Made one after another, each settled first, a double-tapped skip's second
 * tap met a skip already answered (200 where it had been refused 400), and a `skipToItem` sent
 * before its load answered met a queue already loaded: the console's own export failed it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ReproBundle } from '../api/bundle-types.js';
import type { ScenarioStep } from '../api/scenario-types.js';
import type { Engine } from '../index.js';
import {
  freshConsole,
  GROUP,
  perform,
  PLAYER,
  playingOnKitchen,
  replay,
  settle,
  type Bench,
} from './testing-actions.js';

const opened: Engine[] = [];
afterAll(async () => {
  for (const engine of opened) await engine.close();
});

/** A queue of eight minute-long tracks playing on Kitchen, five seconds in. */
async function playing(limitedSkips: boolean): Promise<Bench> {
  const engine = await freshConsole();
  opened.push(engine);
  const bench = await playingOnKitchen(engine, {
    durations: Array.from({ length: 8 }, () => 60_000),
    limitedSkips,
    notifyUserIntent: false,
  });
  await engine.commands.run('clock.set', { advanceMs: 5_000 });
  return bench;
}

const control = (bench: Bench, path: string, body: unknown = {}) =>
  bench.engine.commands.run('control.send', { method: 'POST', path, body });
const session = (bench: Bench) => `/api/v1/playbackSessions/${bench.sessionId}/playbackSession:1`;
const itemIds = async (bench: Bench) =>
  (await bench.engine.commands.run('queues.get', { id: bench.queue.id })).items.map((item) => item.id);

/** Lets what the calls set going play out, then exports the span. */
async function exported(bench: Bench, calls: Promise<unknown>[]): Promise<ReproBundle> {
  const all = Promise.allSettled(calls);
  await settle(bench);
  for (let i = 0; i < 3; i++) await bench.engine.commands.run('clock.set', { advanceMs: 1_000 });
  await all;
  await bench.engine.commands.run('clock.set', { advanceMs: 5_000 });
  return (await bench.engine.commands.run('bundles.export', { name: 'At once' })) as ReproBundle;
}

const calls = (bundle: ReproBundle) =>
  bundle.scenario.steps.filter((step) => step.type === 'command' || step.type === 'action' || step.type === 'trigger');

/** Nothing of the span left unchecked: the replay holds the calls to what they met then. */
function expectAllChecked(bundle: ReproBundle): void {
  expect(bundle.notes.filter((note) => /not checked/.test(note))).toEqual([]);
}

async function expectReplaysPass(bundle: ReproBundle, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const { report } = await replay(bundle);
    expect(report.steps.filter((step) => step.status !== 'passed')).toEqual([]);
  }
}

describe('a bundle of calls made at once', () => {
  it('replays a double-tapped skip: the second tap refused while the first waits for the server', async () => {
    const bench = await playing(true);
    const tap = () => control(bench, `/api/v1/groups/${GROUP}/playback:1/skipToNextTrack`);
    const answers = [tap(), tap()];
    expect((await Promise.all(answers)).map((answer) => answer.status)).toEqual([200, 400]);
    const bundle = await exported(bench, answers);
    const taps = calls(bundle).slice(-2);
    expect(taps).toMatchObject([{ expectStatus: 200 }, { expectStatus: 400, overlapsPrevious: true }]);
    expect(taps[0]).not.toHaveProperty('overlapsPrevious');
    expectAllChecked(bundle);
    await expectReplaysPass(bundle, 3);

    // Made one after another, the second tap meets the first already answered.
    const apart = structuredClone(bundle);
    for (const step of apart.scenario.steps) delete (step as { overlapsPrevious?: boolean }).overlapsPrevious;
    const { report } = await replay(apart);
    expect(report.steps.find((step) => step.status === 'failed')?.message).toMatch(/answered 200, expected 400/);
  });

  it('replays a skipToItem sent before its load answered', async () => {
    const bench = await playing(false);
    const ids = await itemIds(bench);
    const { queueBaseUrl, httpAuthorization } = bench.queue;
    const load = control(bench, `${session(bench)}/loadCloudQueue`, {
      queueBaseUrl,
      httpAuthorization,
      itemId: ids[2],
      playOnCompletion: true,
    });
    const skip = control(bench, `${session(bench)}/skipToItem`, { itemId: ids[5] });
    const bundle = await exported(bench, [load, skip]);
    expect(calls(bundle).at(-1)).toMatchObject({ path: expect.stringMatching(/skipToItem$/), overlapsPrevious: true });
    expectAllChecked(bundle);
    await expectReplaysPass(bundle, 3);
  });

  it('replays six calls of the buttons, the control API and Send now made at once', async () => {
    for (let take = 0; take < 2; take++) {
      const bench = await playing(true);
      const ids = await itemIds(bench);
      const { engine } = bench;
      const sent = [
        engine.commands.run('players.act', { id: PLAYER, action: 'skipNext' }),
        control(bench, `/api/v1/groups/${GROUP}/playback:1/pause`),
        control(bench, `${session(bench)}/skipToItem`, { itemId: ids[5] }),
        engine.commands.run('players.act', { id: PLAYER, action: 'skipPrev' }),
        control(bench, `/api/v1/groups/${GROUP}/playback:1/seek`, { positionMillis: 30_000 }),
        engine.commands.run('players.trigger', { id: PLAYER, request: 'refresh' }),
      ];
      const bundle = await exported(bench, sent);
      expect(calls(bundle).filter((step) => 'overlapsPrevious' in step).length).toBeGreaterThanOrEqual(3);
      expectAllChecked(bundle);
      await expectReplaysPass(bundle, 2);
    }
  });

  it('settles a call waiting only for engine time before the next, as it was', async () => {
    const bench = await playing(true);
    await perform(bench, {
      kind: 'rule',
      rule: {
        target: 'player',
        match: { path: '/itemWindow', reason: 'skipNext' },
        action: { type: 'status', status: 503, retryAfter: 2 },
        times: 1,
      },
    });
    // The skip's 503 is answered; it waits out Retry-After on the engine clock, no request in
    // flight, when the pause is made at the same instant.
    await perform(bench, { kind: 'button', action: 'skipNext' });
    await perform(bench, { kind: 'button', action: 'pause' });
    await perform(bench, { kind: 'advance', ms: 5_000 });
    const bundle = (await bench.engine.commands.run('bundles.export', { name: 'Retry, then pause' })) as ReproBundle;
    const pause = bundle.scenario.steps.findLast(
      (step): step is ScenarioStep & { type: 'action' } => step.type === 'action' && step.action === 'pause',
    );
    expect(pause).toBeDefined();
    expect(pause).not.toHaveProperty('overlapsPrevious');
    await expectReplaysPass(bundle, 2);
  });
});
