/**
 * Calls on a session the span did not see made or loaded. After a restart on the same data dir a
 * player keeps where it was, but the journal begins anew: its load is in no bundle, and the
 * replay's player is idle. A skip on that session replayed 409 against the source's 200, and the
 * bundle failed on a console that had done nothing wrong (review). A session gone from the console
 * by the export (another took its group) was named by a variable nothing saved, and `run` refused
 * the bundle (exit 2).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BundleImportResult, ReproBundle } from '../api/bundle-types.js';
import type { ControlExchange } from '../api/commands/player.js';
import type { QueueSummary } from '../api/queue-types.js';
import type { ScenarioReport, ScenarioStep } from '../api/scenario-types.js';
import { sampleTracks } from '../cloud-queue/samples.js';
import type { Engine } from '../index.js';
import { adminOk, advanceClock, controlSend, startTestEngine } from '../testing/http.js';
import { tempDirs } from '../testing/temp-dirs.js';

const engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});
const dataDir = tempDirs('cqc-sessions-before-');

async function started(dir: string | null): Promise<Engine> {
  const engine = await startTestEngine({ clockSpeed: 0, dataDir: dir });
  engines.push(engine);
  return engine;
}

const send = (engine: Engine, path: string, body?: unknown) => controlSend<ControlExchange>(engine, path, body);

async function replayed(bundle: ReproBundle): Promise<ScenarioReport> {
  const target = await started(null);
  const imported = await adminOk<BundleImportResult>(target, 'POST', '/bundles/import', bundle);
  return adminOk<ScenarioReport>(target, 'POST', `/scenarios/${imported.scenario.id}/run`);
}

/** A new session on `group` (or `sessionId` again), `afterMs` of engine time, and the queue loaded on it. */
async function loaded(
  engine: Engine,
  group: string,
  queueId: string,
  { sessionId: again, afterMs = 0 }: { sessionId?: string; afterMs?: number } = {},
): Promise<string> {
  const queue = await adminOk<QueueSummary>(engine, 'GET', `/queues/${queueId}`);
  const sessionId =
    again ??
    (
      (
        await send(engine, `/api/v1/groups/${group}/playbackSession:1`, {
          appId: 'com.example.before',
          appContext: 'qa',
        })
      ).body as { sessionId: string }
    ).sessionId;
  if (afterMs) await advanceClock(engine, afterMs);
  const load = await send(engine, `/api/v1/playbackSessions/${sessionId}/playbackSession:1/loadCloudQueue`, {
    queueBaseUrl: queue.queueBaseUrl,
    httpAuthorization: queue.httpAuthorization,
    playOnCompletion: true,
  });
  expect(load.status).toBe(200);
  return sessionId;
}

/** Each command step by the end of its path, with what the replay checks of it. */
const commands = (steps: readonly ScenarioStep[]) =>
  steps.flatMap((step) =>
    step.type === 'command'
      ? [[step.path.split('/').at(-1), step.expectStatus ?? step.outcomeNotChecked ?? 'saves']]
      : [],
  );

describe('a bundle with calls on a session the span did not load', () => {
  it('replays them after a restart without checking what only the load before could cause', async () => {
    const dir = dataDir();
    const before = await started(dir);
    const queue = await adminOk<QueueSummary>(before, 'POST', '/queues', {
      items: sampleTracks(1, 6).map((track) => ({ track })),
    });
    const sessionId = await loaded(before, 'group-kitchen', queue.id);
    await advanceClock(before, 2_000);
    await before.close();

    const source = await started(dir);
    await advanceClock(source, 1_000);
    const third = (await adminOk<{ items: { id: string }[] }>(source, 'GET', `/queues/${queue.id}`)).items[2]!.id;
    const skip = await send(source, `/api/v1/playbackSessions/${sessionId}/playbackSession:1/skipToItem`, {
      itemId: third,
    });
    expect(skip.status).toBe(200);
    await advanceClock(source, 1_000);
    expect((await send(source, '/api/v1/groups/group-kitchen/playback:1/pause')).status).toBe(200);
    expect((await send(source, '/api/v1/groups/group-kitchen/groupVolume:1', { volume: 30 })).status).toBe(200);
    await adminOk(source, 'POST', '/players/player-kitchen/actions', { action: 'play' });
    await advanceClock(source, 1_000);
    // Loaded again in the span: from here on the replay can cause what the calls meet.
    await loaded(source, 'group-kitchen', queue.id, { sessionId });
    await advanceClock(source, 1_000);
    expect((await send(source, '/api/v1/groups/group-kitchen/playback:1/pause')).status).toBe(200);
    await advanceClock(source, 1_000);

    const bundle = await adminOk<ReproBundle>(source, 'POST', '/bundles/export', {});
    const busy = expect.stringMatching(/^player-kitchen was PLAYING when the scenario began, loaded before it/);
    expect(commands(bundle.scenario.steps)).toEqual([
      ['playbackSession:1', 'saves'],
      ['skipToItem', busy],
      ['pause', busy],
      ['groupVolume:1', 200],
      ['loadCloudQueue', 200],
      ['pause', 200],
    ]);
    expect(bundle.scenario.steps).toContainEqual(
      expect.objectContaining({ type: 'action', action: 'play', outcomeNotChecked: busy }),
    );
    const report = await replayed(bundle);
    expect(report.passed, JSON.stringify(report.steps.filter((s) => s.status === 'failed'))).toBe(true);
    // What is still checked is checked: the last pause, asked of an idle player, fails the replay.
    const changed = structuredClone(bundle);
    changed.scenario.steps = changed.scenario.steps.filter(
      (s) => !(s.type === 'command' && s.path.endsWith('/loadCloudQueue')),
    );
    expect((await replayed(changed)).passed).toBe(false);
  });

  it('makes a session gone by the export from the call that created it, when the journal holds it', async () => {
    const source = await started(null);
    const queue = await adminOk<QueueSummary>(source, 'POST', '/queues', {
      items: sampleTracks(1, 6).map((track) => ({ track })),
    });
    await advanceClock(source, 1_000);
    // Made a second before its load: the span, which reaches back to the load, begins after it.
    const first = await loaded(source, 'group-kitchen', queue.id, { afterMs: 1_000 });
    await advanceClock(source, 1_000);
    const second = (await adminOk<{ items: { id: string }[] }>(source, 'GET', `/queues/${queue.id}`)).items[1]!.id;
    expect(
      (await send(source, `/api/v1/playbackSessions/${first}/playbackSession:1/skipToItem`, { itemId: second })).status,
    ).toBe(200);
    await advanceClock(source, 1_000);
    // Another session takes the group: the first is gone from the console.
    await loaded(source, 'group-kitchen', queue.id);
    await advanceClock(source, 1_000);

    // The newest entries only: the span begins after the first session was created.
    const bundle = await adminOk<ReproBundle>(source, 'POST', '/bundles/export', {
      filter: { target: 'control' },
      limit: 3,
    });
    expect(bundle.notes).toContainEqual(
      expect.stringMatching(/was created before the exported span: the scenario creates it first/),
    );
    const report = await replayed(bundle);
    expect(report.passed, JSON.stringify(report.steps.filter((s) => s.status === 'failed'))).toBe(true);
  });
});
