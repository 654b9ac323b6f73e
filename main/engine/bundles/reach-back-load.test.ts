/**
 * A bundle whose span is cut after a load (a filter, a limit, the traffic log cleared during
 * playback) still replays the load its skip met: the span reaches back to the call that made the
 * player leave idle, not to the moment it left, which comes later (audit V1: the load's window
 * took engine time to answer, the span began at the answer, and the replay's skip found nothing
 * loaded).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReproBundle } from '../api/bundle-types.js';
import type { Engine } from '../index.js';
import { freshConsole, GROUP, PLAYER, replay } from './testing-actions.js';

describe('a bundle cut after the load its skip met', () => {
  let source: Engine;

  beforeAll(async () => {
    source = await freshConsole();
    const run = source.commands.run.bind(source.commands);
    const queue = await run('queues.create', {
      name: 'Cut after the load',
      playbackPolicies: { limitedSkips: true },
      items: Array.from({ length: 12 }, (_, i) => ({
        track: { name: `Track ${i + 1}`, mediaUrl: `https://media.example/cut/${i + 1}.mp3`, durationMillis: 30_000 },
      })),
    });
    // The load's window answers an engine second late: the player leaves idle a second after the
    // call that loaded it began, as on a console whose clock runs.
    await run('faults.add', {
      target: 'cloudQueue',
      match: { path: '/itemWindow', reason: 'load' },
      action: { type: 'latency', ms: 1_000 },
      times: 1,
      label: 'slow load',
    });
    const session = await run('control.send', {
      method: 'POST',
      path: `/api/v1/groups/${GROUP}/playbackSession:1`,
      body: { appId: 'com.example.cut', appContext: 'reach-back' },
    });
    const sessionId = (session.body as { sessionId: string }).sessionId;
    const load = run('control.send', {
      method: 'POST',
      path: `/api/v1/playbackSessions/${sessionId}/playbackSession:1/loadCloudQueue`,
      body: { queueBaseUrl: queue.queueBaseUrl, httpAuthorization: queue.httpAuthorization, playOnCompletion: true },
    });
    await source.clock.advance(0);
    await run('clock.set', { advanceMs: 2_000 });
    expect((await load).status).toBe(200);
    await run('clock.set', { advanceMs: 2_000 });
    // Cleared during playback: what the log holds begins after the load.
    run('traffic.clear');
    await run('clock.set', { advanceMs: 500 });
    await run('players.act', { id: PLAYER, action: 'skipNext' });
    await run('clock.set', { advanceMs: 2_000 });
  });

  afterAll(() => source.close());

  const loads = (bundle: ReproBundle) =>
    bundle.scenario.steps.filter((s) => s.type === 'command' && s.path.endsWith('/loadCloudQueue'));

  it.each([
    ['filtered to the skip', { filter: { reason: 'skipNext' } }],
    ['limited to the newest entries', { limit: 5 }],
    ['unfiltered, the log cleared after the load', {}],
  ])('replays the load when %s, and passes', async (_, input) => {
    const bundle = await source.commands.run('bundles.export', input);
    expect(loads(bundle)).toHaveLength(1);
    // Unfiltered, it checks the player's transitions, the load's among them.
    if (!('filter' in input))
      expect(bundle.scenario.steps).toContainEqual(
        expect.objectContaining({
          type: 'expect',
          playerId: PLAYER,
          transitions: expect.arrayContaining(['load-begins']),
        }),
      );
    const { report } = await replay(bundle);
    const failed = report.steps.filter((s) => s.status !== 'passed');
    expect(failed, JSON.stringify(bundle.notes)).toEqual([]);
    expect(report.passed).toBe(true);
  });
});
