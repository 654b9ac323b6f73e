/**
 * Every exported bundle reproduces: the paths a QA takes at the workbench (a preset, Send now,
 * a clock jump; a rule injected then removed; a command sent with an integration's token; clock
 * speed changes; queue edits; rules moved and triggered) are exported and replayed on a fresh
 * console with the same transitions.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BundleImportResult, ReproBundle } from '../api/bundle-types.js';
import type { ControlExchange } from '../api/commands/player.js';
import type { FaultRule } from '../api/fault-types.js';
import type { PlayerTransition } from '../api/player-types.js';
import type { QueueEditResult, QueueSummary } from '../api/queue-types.js';
import type { ScenarioReport } from '../api/scenario-types.js';
import { sampleTracks } from '../cloud-queue/samples.js';
import type { Engine } from '../index.js';
import { admin, adminOk, advanceClock, controlSend, startTestEngine } from '../testing/http.js';
import { codeFor, createTestIntegration, LOOPBACK_REDIRECT, tokenRequest } from '../testing/oauth.js';
import { tempDirs } from '../testing/temp-dirs.js';

const PLAYER = 'player-kitchen';
const engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

async function fresh(): Promise<Engine> {
  const engine = await startTestEngine({ clockSpeed: 0 });
  engines.push(engine);
  return engine;
}

const send = (engine: Engine, path: string, body?: unknown) => controlSend<ControlExchange>(engine, path, body);
const advance = advanceClock;
const ok = adminOk;
const rows = async (engine: Engine) =>
  (await ok<PlayerTransition[]>(engine, 'GET', `/players/${PLAYER}/transitions?limit=500`)).map((t) => t.transition);

/** A fresh console with a queue playing on Kitchen, as the workbench's "play a queue" leaves it. */
async function kitchenPlaying(engine: Engine, policies?: Record<string, unknown>): Promise<QueueSummary> {
  const queue = await ok<QueueSummary>(engine, 'POST', '/queues', {
    name: 'Kitchen queue',
    items: sampleTracks(1, 12).map((track) => ({ track })),
    ...(policies ? { playbackPolicies: policies } : {}),
  });
  const session = (
    await send(engine, '/api/v1/groups/group-kitchen/playbackSession', {
      appId: 'com.example.walkthrough',
      appContext: 'qa',
    })
  ).body as { sessionId: string };
  const load = await send(engine, `/api/v1/playbackSessions/${session.sessionId}/playbackSession/loadCloudQueue`, {
    queueBaseUrl: queue.queueBaseUrl,
    httpAuthorization: queue.httpAuthorization,
    playOnCompletion: true,
  });
  expect(load.status).toBe(200);
  await advance(engine, 1_000);
  return queue;
}

/** Exports the source, replays the bundle on a fresh console, and answers the report and both players' rows. */
async function replay(
  source: Engine,
  bundle?: ReproBundle,
): Promise<{ bundle: ReproBundle; report: ScenarioReport; source: string[]; replayed: string[] }> {
  bundle ??= await ok<ReproBundle>(source, 'POST', '/bundles/export', {});
  const target = await fresh();
  const imported = await ok<BundleImportResult>(target, 'POST', '/bundles/import', JSON.parse(JSON.stringify(bundle)));
  const report = await ok<ScenarioReport>(target, 'POST', `/scenarios/${imported.scenario.id}/run`);
  return { bundle, report, source: await rows(source), replayed: await rows(target) };
}

function passes(result: { report: ScenarioReport; source: string[]; replayed: string[] }): void {
  expect(result.report.steps.filter((s) => s.status !== 'passed')).toEqual([]);
  expect(result.report.passed).toBe(true);
  expect(result.replayed).toEqual(result.source);
}

describe('a bundle exported at the workbench', () => {
  it('replays the 503 storm after Send now: Refresh and a minute of engine time', async () => {
    const source = await fresh();
    await kitchenPlaying(source);
    await ok(source, 'POST', '/faults/presets/503-storm', {});
    await ok(source, 'POST', `/players/${PLAYER}/trigger`, { request: 'refresh' });
    await advance(source, 60_000);
    const result = await replay(source);
    expect(result.source).toContain('refresh-command');
    expect(result.bundle.version).toBe(2);
    expect(result.bundle.scenario.steps).toContainEqual({ type: 'trigger', playerId: PLAYER, request: 'refresh' });
    const expectStep = result.bundle.scenario.steps.find((s) => s.type === 'expect');
    expect(expectStep).toMatchObject({ playerId: PLAYER, transitions: expect.arrayContaining(['refresh-command']) });
    passes(result);
  });

  it('checks no outcome after a control call a one-answer rule answered in the API’s place (audit)', async () => {
    const source = await fresh();
    await kitchenPlaying(source);
    await ok(source, 'POST', '/faults', {
      target: 'control',
      match: { method: 'POST', path: '*playback:1/pause' },
      action: { type: 'status', status: 503, retryAfter: 4 },
      times: 1,
    });
    // Answered by the rule before the API: the journal never sees it, the replay never makes it.
    expect((await send(source, '/api/v1/groups/group-kitchen/playback:1/pause')).status).toBe(503);
    expect((await send(source, '/api/v1/groups/group-kitchen/playback:1/pause')).status).toBe(200);
    await advance(source, 1_000);
    const result = await replay(source);
    const pauses = result.bundle.scenario.steps.filter((s) => s.type === 'command' && s.path.endsWith('/pause'));
    expect(pauses).toEqual([
      expect.objectContaining({
        outcomeNotChecked: expect.stringMatching(/^rule rule1 answered POST .*pause in the control API's place/),
      }),
    ]);
    // The replay's rule answers its one pause 503: not held against it, where the source's got 200.
    expect(result.report.passed).toBe(true);
    // Filtered to the players' traffic, the answered call is not among the entries: read all the same (review).
    const filtered = await ok<ReproBundle>(source, 'POST', '/bundles/export', { filter: { target: 'player' } });
    expect(filtered.scenario.steps.filter((s) => s.type === 'command' && s.path.endsWith('/pause'))).toEqual([
      expect.objectContaining({ outcomeNotChecked: expect.stringMatching(/in the control API's place/) }),
    ]);
  });

  it('says why a span of the console’s own calls alone checks nothing (audit)', async () => {
    const source = await fresh();
    await kitchenPlaying(source);
    await advance(source, 1_000);
    // The newest entries are the admin API's own: nothing of a player's in them.
    await ok(source, 'GET', '/players');
    await ok(source, 'GET', '/queues');
    const bundle = await ok<ReproBundle>(source, 'POST', '/bundles/export', { limit: 2 });
    expect(bundle.scenario.steps.some((s) => s.type === 'expect')).toBe(false);
    expect(bundle.notes).toEqual([
      expect.stringMatching(
        /^the span \(2 entries, the newest 2, the console’s own admin calls among them\) holds no player’s transition/,
      ),
      expect.stringMatching(/^the span is the newest 2 of the \d+ entries in the traffic log: give a larger limit/),
    ]);
  });

  it('replays a call still waiting at the export as it began, its outcome unchecked, through the same transitions', async () => {
    const source = await fresh();
    await kitchenPlaying(source, { limitedSkips: true });
    await ok(source, 'POST', '/faults/presets/503-storm', {});
    // With limitedSkips a skip back asks the server; the storm's 503 makes it wait for its retry.
    const skip = admin(source, 'POST', `/players/${PLAYER}/actions`, { action: 'skipPrev' });
    await expect.poll(async () => (await rows(source)).includes('skip-asks-server')).toBe(true);
    const bundle = await ok<ReproBundle>(source, 'POST', '/bundles/export', {});
    const sourceRows = await rows(source);
    await advance(source, 60_000);
    await skip;
    expect(
      bundle.notes.some((note) =>
        /players\.act was still waiting for its outcome when the bundle was exported/.test(note),
      ),
    ).toBe(true);
    expect(bundle.scenario.steps).toContainEqual({
      type: 'action',
      playerId: PLAYER,
      action: 'skipPrev',
      pendingAtExport: true,
    });
    expect(bundle.scenario.steps.find((s) => s.type === 'expect')).toMatchObject({
      transitions: expect.arrayContaining(['skip-asks-server']),
    });
    const target = await fresh();
    const imported = await ok<BundleImportResult>(
      target,
      'POST',
      '/bundles/import',
      JSON.parse(JSON.stringify(bundle)),
    );
    const report = await ok<ScenarioReport>(target, 'POST', `/scenarios/${imported.scenario.id}/run`);
    expect(report.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(
      report.steps.some((s) =>
        /still waiting when the run ended \(not checked: still waiting when the bundle was exported\)/.test(s.message),
      ),
    ).toBe(true);
    expect(await rows(target)).toEqual(sourceRows);
  });

  it('replays a rule that was injected, acted and removed before the export: the rule is in the scenario', async () => {
    const source = await fresh();
    await kitchenPlaying(source);
    const rule = await ok<FaultRule>(source, 'POST', '/faults/presets/404-item-window-refresh', {});
    await ok(source, 'POST', `/players/${PLAYER}/trigger`, { request: 'refresh' });
    await advance(source, 5_000);
    await ok(source, 'DELETE', `/faults/${rule.id}`);
    await advance(source, 5_000);
    const result = await replay(source);
    expect(result.source).toContain('window-not-found');
    const steps = result.bundle.scenario.steps;
    expect(steps).toContainEqual({ type: 'fault', ref: 'rule1', rule: expect.objectContaining({ label: rule.label }) });
    expect(steps).toContainEqual({ type: 'faultRemove', rule: 'rule1' });
    expect(result.bundle.faults).toEqual([]);
    expect(result.bundle.scenario.steps.find((s) => s.type === 'expect')).toMatchObject({
      transitions: expect.arrayContaining(['window-not-found']),
    });
    passes(result);
  });

  it('replays rules moved and triggered by the bundle\u2019s own names for them', async () => {
    const source = await fresh();
    await kitchenPlaying(source);
    await ok(source, 'POST', '/faults/presets/503-storm', {});
    const window404 = await ok<FaultRule>(source, 'POST', '/faults', {
      target: 'cloudQueue',
      match: { method: 'GET', path: '/itemWindow' },
      action: { type: 'status', status: 404 },
      times: 1,
      label: '404',
    });
    await ok(source, 'POST', `/faults/${window404.id}/trigger`, {});
    await ok(source, 'POST', `/faults/${window404.id}/move`, { toIndex: 0 });
    await advance(source, 20_000);
    const result = await replay(source);
    expect(result.bundle.scenario.steps).toContainEqual({ type: 'faultMove', rule: 'rule2', toIndex: 0 });
    expect(result.bundle.scenario.steps).toContainEqual({ type: 'faultTrigger', rule: 'rule2', playerId: PLAYER });
    expect(result.source).toContain('window-not-found');
    passes(result);
  });

  it('replays a control command an integration sent with its own token, with the console\u2019s', async () => {
    const source = await fresh();
    const queue = await kitchenPlaying(source);
    const { sessionId } = await ok<{ sessionId: string }>(source, 'GET', `/players/${PLAYER}/detail`);
    // The integration's token: one issued to a client of the login service, as an integrator's app holds it.
    const token = await integrationToken(source);
    const response = await fetch(
      `${source.urls.control}/api/v1/playbackSessions/${sessionId}/playbackSession/skipToItem`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ itemId: 'item-4' }),
      },
    );
    expect(response.status).toBe(200);
    await advance(source, 3_000);
    const result = await replay(source);
    expect(result.source).toContain('skip-to-item-asks-server');
    expect(result.bundle.scenario.steps).toContainEqual(
      expect.objectContaining({
        type: 'command',
        path: '/api/v1/playbackSessions/${session1}/playbackSession/skipToItem',
        body: { itemId: '${queue1.item-4}' },
      }),
    );
    expect(JSON.stringify(result.bundle.scenario)).not.toContain(token);
    expect(result.bundle.notes).toContainEqual(
      expect.stringMatching(/^control calls were sent as .*: the replay sends each with the console\u2019s own token/),
    );
    expect(JSON.stringify(result.bundle.scenario)).not.toContain(queue.accessToken);
    passes(result);
  });

  it('replays clock jumps and speed changes as the engine time they let pass', async () => {
    const source = await fresh();
    await kitchenPlaying(source);
    await ok(source, 'POST', '/clock', { speed: 2, advanceMs: 30_000 });
    await ok(source, 'POST', '/clock', { speed: 0 });
    await ok(source, 'POST', `/players/${PLAYER}/actions`, { action: 'pause' });
    await advance(source, 250_000);
    await ok(source, 'POST', `/players/${PLAYER}/actions`, { action: 'play' });
    await advance(source, 600_000);
    const result = await replay(source);
    const jumped = result.bundle.scenario.steps.reduce(
      (sum, s) => sum + (s.type === 'clock' ? (s.advanceMs ?? 0) : 0),
      0,
    );
    const sourceClock = await ok<{ now: number }>(source, 'GET', '/clock');
    expect(jumped).toBeGreaterThanOrEqual(881_000);
    expect(result.report.endedAt - result.report.startedAt).toBe(jumped);
    expect(sourceClock.now).toBeGreaterThan(0);
    expect(result.bundle.notes).toContainEqual(expect.stringContaining('clock speed changes'));
    passes(result);
  });

  it('replays queue edits on the queue as it was when the span began', async () => {
    const source = await fresh();
    const queue = await kitchenPlaying(source, { notifyUserIntent: true });
    const added = await ok<QueueEditResult>(source, 'POST', `/queues/${queue.id}/items`, {
      items: sampleTracks(20, 2).map((track) => ({ track })),
      afterItemId: 'item-1',
    });
    await ok(source, 'DELETE', `/queues/${queue.id}/items/item-2`);
    await ok(source, 'PATCH', `/queues/${queue.id}`, { name: 'Kitchen queue (edited)' });
    // The player hears of the edit at its next poll, and skips into what was added.
    await advance(source, 600_000);
    await ok(source, 'POST', `/players/${PLAYER}/actions`, { action: 'skipNext' });
    await advance(source, 5_000);
    const result = await replay(source);
    expect(result.bundle.queues[0]!.items).toHaveLength(12);
    expect(result.bundle.queues[0]!.name).toBe('Kitchen queue');
    expect(result.bundle.scenario.steps).toContainEqual({
      type: 'queueEdit',
      command: 'queues.items.add',
      input: expect.objectContaining({ id: '${queue1.id}', afterItemId: '${queue1.item-1}' }),
      saveItemIds: added.itemIds!.map((id) => `queue1.${id}`),
    });
    expect(result.bundle.scenario.steps).toContainEqual({
      type: 'queueEdit',
      command: 'queues.items.delete',
      input: { id: '${queue1.id}', itemId: '${queue1.item-2}' },
    });
    passes(result);
  });
});

describe('a bundle whose span began before the console restarted', () => {
  const dataDir = tempDirs('cqc-journal-');

  it('checks nothing the journal did not see, says so, and its run is refused rather than PASS', async () => {
    const dir = dataDir();
    const first = await startTestEngine({ clockSpeed: 0, dataDir: dir });
    await kitchenPlaying(first);
    await ok(first, 'POST', `/players/${PLAYER}/trigger`, { request: 'refresh' });
    await first.close();
    const source = await startTestEngine({ clockSpeed: 0, dataDir: dir });
    engines.push(source);
    await advance(source, 2_000);
    const bundle = await ok<ReproBundle>(source, 'POST', '/bundles/export', {});
    expect(bundle.notes).toContainEqual(
      expect.stringMatching(
        /^player-kitchen: .* not checked: the console started at .*calls before that were not journaled/,
      ),
    );
    expect(bundle.scenario.steps.some((s) => s.type === 'expect')).toBe(false);
    // A PASS here would say nothing: the run is refused, as `run FILE` refuses the file (exit 2).
    const target = await fresh();
    const imported = await ok<BundleImportResult>(target, 'POST', '/bundles/import', bundle);
    const refused = await admin(target, 'POST', `/scenarios/${imported.scenario.id}/run`);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/checks nothing: none of its \d+ steps is an expectation/);
  });
});

/** An access token an integration obtained with its own client, through the code grant. */
async function integrationToken(engine: Engine): Promise<string> {
  const client = await createTestIntegration(engine);
  const code = await codeFor(engine, client);
  const issued = await tokenRequest(engine, client, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: LOOPBACK_REDIRECT,
  });
  expect(issued.status).toBe(200);
  return String(issued.body.access_token);
}
