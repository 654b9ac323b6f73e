/**
 * A bundle's replay checks the requests that failed and the retries, not only the transitions:
 * retries change no row of the transition table, so a bundle of a skip answered only after two
 * 503s and their retries passed with its 503 rule taken out, the skip then answered at once
 * (audit). Its expectation now lists those requests, and the replay must make them again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundleImportResult, ReproBundle } from '../api/bundle-types.js';
import type { QueueSummary } from '../api/queue-types.js';
import type { ScenarioReport, ScenarioStep } from '../api/scenario-types.js';
import { sampleTracks } from '../cloud-queue/samples.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';

const PLAYER = 'player-kitchen';

async function ok<T>(engine: Engine, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await admin(engine, method, path, body);
  if (answer.status !== 200)
    throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}
const control = (engine: Engine, path: string, body?: unknown) =>
  ok<{ status: number; body: unknown }>(engine, 'POST', '/control/send', { method: 'POST', path, body });
const advance = (engine: Engine, advanceMs: number) => ok(engine, 'POST', '/clock', { advanceMs });

async function replay(engine: Engine, bundle: ReproBundle): Promise<ScenarioReport> {
  const { scenario } = await ok<BundleImportResult>(engine, 'POST', '/bundles/import', bundle);
  return ok<ScenarioReport>(engine, 'POST', `/scenarios/${scenario.id}/run`);
}

describe('a bundle of a skip answered after its retries', () => {
  let source: Engine;
  let target: Engine;
  let bundle: ReproBundle;

  beforeAll(async () => {
    [source, target] = await Promise.all([startTestEngine({ clockSpeed: 0 }), startTestEngine({ clockSpeed: 0 })]);
    // limitedSkips: a skip asks the server, and waits for its answer.
    const queue = await ok<QueueSummary>(source, 'POST', '/queues', {
      name: 'Limited skips',
      items: sampleTracks(1, 8).map((track) => ({ track })),
      playbackPolicies: { canSkip: true, limitedSkips: true },
    });
    const session = await control(source, '/api/v1/groups/group-kitchen/playbackSession:1', {
      appId: 'com.example.retries',
      appContext: 'bundle-test',
    });
    const sessionId = (session.body as { sessionId: string }).sessionId;
    await control(source, `/api/v1/playbackSessions/${sessionId}/playbackSession:1/loadCloudQueue`, {
      queueBaseUrl: queue.queueBaseUrl,
      httpAuthorization: queue.httpAuthorization,
      playOnCompletion: true,
    });
    await advance(source, 5_000);
    await ok(source, 'POST', '/faults', {
      target: 'player',
      match: { path: '/itemWindow', reason: 'skipNext' },
      action: { type: 'status', status: 503, retryAfter: 2 },
      times: 2,
      label: 'two 503s',
    });
    // The skip waits for the server's answer, which waits for the retries, on the engine clock.
    const skip = ok(source, 'POST', `/players/${PLAYER}/actions`, { action: 'skipNext' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await advance(source, 10_000);
    await skip;
    bundle = await ok<ReproBundle>(source, 'POST', '/bundles/export', { name: 'Skip after retries' });
  });
  afterAll(async () => {
    await Promise.all([source.close(), target.close()]);
  });

  const expectation = (b: ReproBundle) =>
    b.scenario.steps.find((s): s is ScenarioStep & { type: 'expect' } => s.type === 'expect' && s.playerId === PLAYER)!;

  it('lists the failed requests and the retry that was answered beside the transitions', () => {
    expect(expectation(bundle).requests).toEqual([
      'itemWindow skipNext → 503',
      'itemWindow skipNext → 503 (retry 1)',
      'itemWindow skipNext → 200 (retry 2)',
    ]);
  });

  it('replays to PASS as exported', async () => {
    const report = await replay(target, bundle);
    expect(report.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(report.passed).toBe(true);
  });

  it('fails with its 503 rule taken out: the same transitions, but no retries', async () => {
    const tampered = structuredClone(bundle);
    tampered.faults = [];
    tampered.scenario.steps = tampered.scenario.steps.filter((s) => s.type !== 'fault');
    const report = await replay(target, tampered);
    expect(report.passed).toBe(false);
    expect(report.steps.at(-1)).toMatchObject({
      type: 'expect',
      status: 'failed',
      message: expect.stringContaining('no itemWindow skipNext → 503 request (saw: none failed or was retried)'),
    });
  });
});
