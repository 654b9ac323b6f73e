/**
 * Repro bundles over the admin API: one console's traffic exported, imported into a second
 * console, and its scenario replayed there with the same transitions; bad bundles refused with
 * nothing changed, even when a write fails halfway.
 */
import harValidator from 'har-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundleImportResult, ReproBundle } from '../api/bundle-types.js';
import type { FaultRule } from '../api/fault-types.js';
import type { PlayerTransition } from '../api/player-types.js';
import type { QueueSummary, QueueView } from '../api/queue-types.js';
import type { ScenarioReport } from '../api/scenario-types.js';
import type { StoredScenarioView } from '../api/commands/scenarios.js';
import { EngineClock } from '../clock/clock.js';
import { QueueModel } from '../cloud-queue/queue-model.js';
import { sampleTracks } from '../cloud-queue/samples.js';
import { EventBus } from '../events/bus.js';
import { FaultRegistry } from '../faults/registry.js';
import type { Engine } from '../index.js';
import { openStore } from '../store/store.js';
import { admin, adminOk, advanceClock, controlSend, startTestEngine } from '../testing/http.js';
import { ManualWall } from '../testing/manual-wall.js';
import { importBundle } from './import.js';

const PLAYER = 'player-kitchen';
const GROUP = 'group-kitchen';

/** The rows of the transition table a player went through, oldest first. */
async function rows(engine: Engine): Promise<string[]> {
  const { body } = await admin(engine, 'GET', `/players/${PLAYER}/transitions?limit=500`);
  return (body as PlayerTransition[]).map((t) => t.transition);
}

const control = (engine: Engine, path: string, body?: unknown) => controlSend(engine, path, body);
const advance = advanceClock;
const ok = adminOk;

describe('a repro bundle', () => {
  let source: Engine;
  let target: Engine;
  let bundle: ReproBundle;
  let sourceRows: string[];
  let queue: QueueSummary;

  beforeAll(async () => {
    [source, target] = await Promise.all([startTestEngine({ clockSpeed: 0 }), startTestEngine({ clockSpeed: 0 })]);
    // A queue whose ids are not 1..n (item-1 removed): the import must map them.
    queue = await ok<QueueSummary>(source, 'POST', '/queues', {
      name: 'Repro queue',
      items: sampleTracks(1, 6).map((track) => ({ track })),
    });
    await ok(source, 'DELETE', `/queues/${queue.id}/items/item-1`);
    // The span begins with the traffic after this: the edit (an engine second earlier) is before it.
    await advance(source, 1_000);
    await ok(source, 'DELETE', '/traffic');

    const session = await control(source, `/api/v1/groups/${GROUP}/playbackSession:1`, {
      appId: 'com.example.repro',
      appContext: 'bundle-test',
    });
    const sessionId = (session.body as { sessionId: string }).sessionId;
    const load = await control(source, `/api/v1/playbackSessions/${sessionId}/playbackSession:1/loadCloudQueue`, {
      queueBaseUrl: queue.queueBaseUrl,
      httpAuthorization: queue.httpAuthorization,
      itemId: 'item-3',
      playOnCompletion: true,
    });
    expect(load.status).toBe(200);
    await advance(source, 5_000);
    await ok(source, 'POST', `/players/${PLAYER}/actions`, { action: 'pause' });
    // The UI's own preferences, changed mid-span (the theme button): nothing a replay depends on.
    await ok(source, 'PATCH', '/preferences', { theme: 'dark' });
    await advance(source, 2_000);
    await ok(source, 'POST', `/players/${PLAYER}/actions`, { action: 'play' });
    await advance(source, 1_000);
    // The next window request fails: skipToItem asks for its item and the 404 sends the player idle.
    await ok(source, 'POST', '/faults', {
      target: 'cloudQueue',
      match: { method: 'GET', path: '/itemWindow', reason: 'skipToItem' },
      action: { type: 'status', status: 404 },
      times: 1,
      label: 'gone',
    });
    expect(
      (
        await control(source, `/api/v1/playbackSessions/${sessionId}/playbackSession:1/skipToItem`, {
          itemId: 'item-5',
        })
      ).status,
    ).toBe(200);
    await advance(source, 3_000);
    sourceRows = await rows(source);
    expect(sourceRows.at(-1)).toBe('window-not-found');

    bundle = await ok<ReproBundle>(source, 'POST', '/bundles/export', { name: 'Kitchen goes idle' });
  });
  afterAll(async () => {
    await Promise.all([source.close(), target.close()]);
  });

  it('holds the HAR, the rules, the queue with its items and the clock', async () => {
    expect(bundle).toMatchObject({ format: 'cloud-queue-console/repro-bundle', version: 2, clock: { speed: 0 } });
    await expect(harValidator.har(bundle.har)).resolves.toBeDefined();
    const urls = bundle.har.log.entries.map((e) => e.request.url);
    expect(urls.some((url) => url.includes('/loadCloudQueue'))).toBe(true);
    // The HAR is for reading and sharing: secrets stay masked.
    const load = bundle.har.log.entries.find((e) => e.request.url.endsWith('/loadCloudQueue'))!;
    expect(load.request.postData!.text).not.toContain(queue.accessToken);
    expect(bundle.faults).toEqual([
      {
        target: 'cloudQueue',
        match: { method: 'GET', path: '/itemWindow', reason: 'skipToItem' },
        action: { type: 'status', status: 404 },
        times: 1,
        label: 'gone',
      },
    ]);
    // The scenario starts from the rules as they were when the span began: the 404 came during it, as a step.
    expect(bundle.scenario.steps).toContainEqual({
      type: 'fault',
      ref: 'rule1',
      rule: {
        target: 'cloudQueue',
        match: { method: 'GET', path: '/itemWindow', reason: 'skipToItem' },
        action: { type: 'status', status: 404 },
        times: 1,
        label: 'gone',
      },
    });
    expect(bundle.queues).toHaveLength(1);
    expect(bundle.queues[0]).toMatchObject({ ref: 'queue1', sourceId: queue.id, name: 'Repro queue' });
    expect(bundle.queues[0]!.items.map((i) => i.id)).toEqual(['item-2', 'item-3', 'item-4', 'item-5', 'item-6']);
  });

  it('says when its span is cut at the limit, and not when the log fits (audit X11)', async () => {
    expect(bundle.notes.filter((note) => note.startsWith('the span is the newest'))).toEqual([]);
    const { total } = await source.commands.run('traffic.page', { offset: 0, limit: 1 });
    const cut = await ok<ReproBundle>(source, 'POST', '/bundles/export', { limit: 5 });
    const said = cut.notes.find((note) => note.startsWith('the span is the newest'));
    expect(said).toMatch(
      /^the span is the newest 5 of the \d+ entries in the traffic log: give a larger limit \(up to 100,000\) or a narrower filter for more of it$/,
    );
    // The log as the export read it: what it held before, and the export's own call at most.
    expect(Number(/of the (\d+) entries/.exec(said!)![1])).toBeGreaterThanOrEqual(total);
  });

  it('leaves earlier exports out of its HAR, each a bundle of its own, and says so (outside audit)', async () => {
    // A refused export answered a reason, not a bundle: it stays, and is not counted.
    expect((await admin(source, 'POST', '/bundles/export', { limit: 0 })).status).toBe(400);
    const exportCalls = await source.commands.run('traffic.page', {
      offset: 0,
      limit: 100,
      filter: { target: 'console', text: '/admin/api/bundles/export' },
    });
    const answered = exportCalls.rows.filter(
      (row) => row.path === '/admin/api/bundles/export' && row.status === 200,
    ).length;
    expect(answered).toBeGreaterThan(0);
    const again = await ok<ReproBundle>(source, 'POST', '/bundles/export', { name: 'again' });
    const exportsKept = again.har.log.entries.filter(
      (entry) => new URL(entry.request.url).pathname === '/admin/api/bundles/export',
    );
    expect(exportsKept.map((entry) => entry.response.status)).toEqual([400]);
    // The admin API's other calls stay: they are what happened.
    const paths = again.har.log.entries.map((entry) => new URL(entry.request.url).pathname);
    expect(paths).toContain(`/admin/api/players/${PLAYER}/actions`);
    const said = again.notes.find((note) => note.startsWith('the HAR leaves out'));
    expect(said).toMatch(/ of a bundle \(POST \/admin\/api\/bundles\/export\): each answer is a bundle/);
    expect(Number(/out (\d+) earlier exports/.exec(said!)?.[1] ?? 1)).toBe(answered);
    // No larger than the first for holding it: the first export's answer alone is tens of KB.
    expect(JSON.stringify(again.har).length).toBeLessThan(JSON.stringify(bundle.har).length + 20_000);
  });

  it('counts no earlier export in its limit: repeated exports of the newest 3 hold 3 entries each', async () => {
    const held: number[] = [];
    for (let round = 0; round < 3; round++) {
      const again = await ok<ReproBundle>(source, 'POST', '/bundles/export', { limit: 3 });
      held.push(again.har.log.entries.length);
      const paths = again.har.log.entries.map((entry) => new URL(entry.request.url).pathname);
      if (round > 0) expect(again.notes.some((note) => note.startsWith('the HAR leaves out'))).toBe(true);
      expect(paths.filter((path) => path === '/admin/api/bundles/export').length).toBeLessThanOrEqual(1);
    }
    expect(held).toEqual([3, 3, 3]);
  });

  it('derives a scenario with variables for sessions, queue URLs, tokens and items', () => {
    const steps = bundle.scenario.steps;
    expect(bundle.scenario.name).toBe('Kitchen goes idle');
    expect(steps.slice(0, 2)).toEqual([{ type: 'clearFaults' }, { type: 'clock', speed: 0 }]);
    expect(
      steps
        .filter((s) => s.type !== 'clock')
        .map((s) => (s.type === 'command' ? s.path.split('/').at(-1) : s.type === 'action' ? s.action : s.type)),
    ).toEqual(['clearFaults', 'playbackSession:1', 'loadCloudQueue', 'pause', 'play', 'fault', 'skipToItem', 'expect']);
    // The replay checks that the player does again what the exported answers and actions made it do.
    expect(steps.at(-1)).toEqual({
      type: 'expect',
      playerId: PLAYER,
      // Where it ended too: idle, on no item.
      state: 'IDLE',
      transitions: [
        'load-begins',
        'load-answered-plays',
        'pause',
        'play',
        'skip-to-item-asks-server',
        'window-not-found',
      ],
      // And the request that failed: its 404 is what emptied the queue.
      requests: ['itemWindow skipToItem → 404'],
    });
    expect(steps).toContainEqual(
      expect.objectContaining({
        type: 'command',
        path: `/api/v1/groups/${GROUP}/playbackSession:1`,
        save: { session1: 'sessionId' },
      }),
    );
    expect(steps).toContainEqual({
      type: 'command',
      method: 'POST',
      path: '/api/v1/playbackSessions/${session1}/playbackSession:1/loadCloudQueue',
      body: {
        queueBaseUrl: '${queue1.url}/v2.3/',
        httpAuthorization: 'Bearer ${queue1.token}',
        itemId: '${queue1.item-3}',
        playOnCompletion: true,
      },
      expectStatus: 200,
    });
    expect(steps).toContainEqual(
      expect.objectContaining({
        path: '/api/v1/playbackSessions/${session1}/playbackSession:1/skipToItem',
        body: { itemId: '${queue1.item-5}' },
      }),
    );
    // The engine-time gaps, the trailing one included.
    expect(
      steps.filter((s) => s.type === 'clock' && s.advanceMs).map((s) => (s as { advanceMs: number }).advanceMs),
    ).toEqual([5_000, 2_000, 1_000, 3_000]);
    expect(JSON.stringify(bundle.scenario)).not.toMatch(/session-[0-9a-f]{8}-/);
    expect(JSON.stringify(bundle.scenario)).not.toContain(queue.id);
  });

  it('imports into another console and replays there with the same transitions', async () => {
    const result = await ok<BundleImportResult>(target, 'POST', '/bundles/import', bundle);
    expect(result.queues).toEqual([
      expect.objectContaining({ ref: 'queue1', sourceId: queue.id, name: 'Repro queue', itemCount: 5 }),
    ]);
    expect(result.faults).toEqual([expect.objectContaining({ target: 'cloudQueue', action: 'status', label: 'gone' })]);
    expect(result.warnings).toEqual([]);
    const created = await ok<QueueView>(target, 'GET', `/queues/${result.queues[0]!.id}`);
    expect(created.items.map((i) => i.track.name)).toEqual(bundle.queues[0]!.items.map((i) => i.track.name));
    expect(await ok<FaultRule[]>(target, 'GET', '/faults')).toHaveLength(1);

    const saved = await ok<StoredScenarioView>(target, 'GET', `/scenarios/${result.scenario.id}`);
    const load = saved.steps.find((s) => s.type === 'command' && s.path.endsWith('/loadCloudQueue'));
    // The new queue's own URL, token and ids: item-3 was the second item, which is item-2 there.
    expect(load).toMatchObject({
      body: {
        queueBaseUrl: `\${cloudQueue}/queues/${created.id}/v2.3/`,
        httpAuthorization: created.httpAuthorization,
        itemId: 'item-2',
      },
    });

    const report = await ok<ScenarioReport>(target, 'POST', `/scenarios/${result.scenario.id}/run`);
    expect(report.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(report.passed).toBe(true);
    expect(await rows(target)).toEqual(sourceRows);
  });

  it("checks the player across a change of the UI's preferences, which the scenario leaves out (audit)", () => {
    expect(bundle.notes.filter((note) => note.includes('preferences'))).toEqual([]);
    const checks = bundle.scenario.steps.filter((step) => step.type === 'expect' && step.playerId === PLAYER);
    expect(checks.flatMap((step) => (step.type === 'expect' ? (step.transitions ?? []) : []))).toContain(
      'window-not-found',
    );
  });

  it('checks no transitions when a filter left traffic out, and says so', async () => {
    const filtered = await ok<ReproBundle>(source, 'POST', '/bundles/export', { filter: { text: 'loadCloudQueue' } });
    expect(filtered.scenario.steps.some((s) => s.type === 'command')).toBe(true);
    expect(filtered.scenario.steps.some((s) => s.type === 'expect')).toBe(false);
    expect(filtered.notes).toContainEqual(expect.stringContaining('the export is filtered'));
  });

  it('replays a filtered export to PASS: its span reaches back to the load its skip needs', async () => {
    // Only the skip's traffic: the span would begin with the player already playing, and a replay
    // (whose players begin idle) answered the skip 409, a FAIL of a bundle nothing was wrong with.
    const filtered = await ok<ReproBundle>(source, 'POST', '/bundles/export', { filter: { reason: 'skipToItem' } });
    const paths = filtered.scenario.steps.flatMap((s) => (s.type === 'command' ? [s.path.split('/').at(-1)] : []));
    expect(paths).toEqual(['playbackSession:1', 'loadCloudQueue', 'skipToItem']);
    expect(filtered.notes).toContainEqual(expect.stringContaining('the span reaches back to'));
    const result = await ok<BundleImportResult>(target, 'POST', '/bundles/import', filtered);
    const report = await ok<ScenarioReport>(target, 'POST', `/scenarios/${result.scenario.id}/run`);
    expect(report.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(report.passed).toBe(true);
  });

  it('fails a replay in which the player does not do what it did (here: a rule left out)', async () => {
    const withoutRule = structuredClone(bundle);
    withoutRule.faults = [];
    withoutRule.scenario.steps = withoutRule.scenario.steps.filter((s) => s.type !== 'fault');
    const result = await ok<BundleImportResult>(target, 'POST', '/bundles/import', withoutRule);
    const report = await ok<ScenarioReport>(target, 'POST', `/scenarios/${result.scenario.id}/run`);
    expect(report.passed).toBe(false);
    expect(report.steps.at(-1)).toMatchObject({
      type: 'expect',
      status: 'failed',
      message: expect.stringContaining('no window-not-found transition'),
    });
  });

  describe('that is bad', () => {
    const broken: [string, (b: ReproBundle) => unknown, RegExp][] = [
      ['is not an object', () => ['hello'], /must be a JSON object/],
      ['is some other file', (b) => ({ ...b, format: 'har' }), /not a repro bundle/],
      ['has a version this console does not read', (b) => ({ ...b, version: 3 }), /version 3 is not supported/],
      [
        'has a track with a negative duration',
        (b) => ({ ...b, queues: [{ ...b.queues[0]!, items: [{ id: 'x', track: { durationMillis: -1 } }] }] }),
        /\/queues\/0\/items\/0\/track\/durationMillis/,
      ],
      [
        'has an item whose policies the queue API refuses',
        (b) => ({
          ...b,
          queues: [{ ...b.queues[0]!, items: [{ id: 'x', track: {}, policies: { pauseTtlSec: 'abc' } }] }],
        }),
        /\/queues\/0\/items\/0\/policies\/pauseTtlSec/,
      ],
      [
        'has a rule with a probability above 1',
        (b) => ({ ...b, faults: [{ ...b.faults[0]!, probability: 2 }] }),
        /\/faults\/0\/probability/,
      ],
      [
        'names a queue it does not hold',
        (b) => ({
          ...b,
          scenario: {
            ...b.scenario,
            steps: [
              ...b.scenario.steps,
              { type: 'command', method: 'POST', path: '/api/v1/x', body: { url: '${queue9.url}' } },
            ],
          },
        }),
        /\$\{queue9\.url\}/,
      ],
      [
        'names an item its queue does not hold',
        (b) => ({ ...b, queues: [{ ...b.queues[0]!, items: b.queues[0]!.items.filter((i) => i.id !== 'item-5') }] }),
        /\$\{queue1\.item-5\}/,
      ],
      [
        'uses a saved value before the step that saves it',
        (b) => ({
          ...b,
          scenario: {
            ...b.scenario,
            steps: [
              { type: 'command', method: 'GET', path: '/api/v1/households/${late}/groups' },
              ...b.scenario.steps,
              { type: 'command', method: 'GET', path: '/api/v1/households', save: { late: 'households.0.id' } },
            ],
          },
        }),
        /\/scenario\/steps\/0 uses \$\{late\}, which names no queue, item or value a step before it saves/,
      ],
      [
        'holds an item whose id is a name the queue itself takes',
        (b) => ({
          ...b,
          queues: [{ ...b.queues[0]!, items: b.queues[0]!.items.map((i, n) => (n === 1 ? { ...i, id: 'token' } : i)) }],
        }),
        /\/queues\/0\/items\/1\/id token is what \$\{queue1\.token\} names of the queue itself; give the item another id/,
      ],
      [
        'holds two queues with one ref',
        (b) => ({ ...b, queues: [b.queues[0]!, b.queues[0]!] }),
        /queue1 is used by two queues/,
      ],
      // Blamed on the step's own field, first: not on each step type it is not.
      [
        'moves the clock more than a year in one step',
        (b) => ({
          ...b,
          scenario: { ...b.scenario, steps: [...b.scenario.steps, { type: 'clock', advanceMs: 1e12 }] },
        }),
        /^not a valid repro bundle: \/scenario\/steps\/\d+\/advanceMs must be <= /,
      ],
      // A field the import does not know would be dropped, and what its editor meant checked by nothing.
      ['holds a field a bundle does not have', (b) => ({ ...b, fault: b.faults }), /\/fault is not a field this takes/],
      [
        'holds a field its clock does not have',
        (b) => ({ ...b, clock: { ...b.clock, speeed: 2 } }),
        /\/clock\/speeed is not a field this takes/,
      ],
      [
        'holds a field its scenario does not have',
        (b) => ({ ...b, scenario: { ...b.scenario, faults: b.faults } }),
        /\/scenario\/faults is not a field this takes/,
      ],
    ];

    it.each(broken)('is refused when it %s, and changes nothing', async (_name, breakIt, message) => {
      const before = await Promise.all(
        ['/queues', '/faults', '/scenarios', '/clock'].map((path) => ok(target, 'GET', path)),
      );
      await ok(target, 'POST', '/clock', { speed: 3 });
      const answer = await admin(target, 'POST', '/bundles/import', breakIt(structuredClone(bundle)));
      expect(answer.status).toBe(400);
      expect((answer.body as { error: { code: string; message: string } }).error).toMatchObject({
        code: 'invalid_input',
        message: expect.stringMatching(message),
      });
      const after = await Promise.all(['/queues', '/faults', '/scenarios'].map((path) => ok(target, 'GET', path)));
      expect(after).toEqual(before.slice(0, 3));
      expect(await ok(target, 'GET', '/clock')).toMatchObject({ speed: 3 });
      await ok(target, 'POST', '/clock', { speed: 0 });
    });
  });
});

describe('an import that fails halfway', () => {
  it('rolls back the queues, the scenario and the rules it had written', async () => {
    const store = openStore({ dataDir: null });
    const clock = new EngineClock({ wall: new ManualWall(), speed: 0 });
    const bus = new EventBus();
    const queues = new QueueModel({ store, clock, emit: () => undefined, cloudQueueUrl: () => 'http://127.0.0.1:1' });
    const faults = new FaultRegistry({ repo: store.faultRules, clock, bus });
    let added = 0;
    const failingFaults = {
      list: () => faults.list(),
      remove: (id: string) => faults.remove(id),
      add: (rule: Parameters<FaultRegistry['add']>[0]) => {
        if (++added === 2) throw new Error('disk full');
        return faults.add(rule);
      },
    };
    const rule = { target: 'cloudQueue' as const, action: { type: 'status' as const, status: 503 } };
    const bundle = {
      format: 'cloud-queue-console/repro-bundle',
      version: 1,
      clock: { speed: 5 },
      faults: [rule, rule],
      queues: [
        {
          ref: 'queue1',
          sourceId: 'q',
          name: 'Q',
          container: {},
          playbackPolicies: {},
          reports: {},
          items: [{ id: 'item-1', track: { name: 'A' } }],
        },
      ],
      scenario: { name: 'S', steps: [{ type: 'clearFaults' }] },
    };
    const deps = {
      store,
      queues,
      faults: failingFaults,
      players: { forSession: () => undefined, all: () => [] },
      clock,
      recorder: { flush: () => undefined },
      urls: () => ({ console: '', login: '', control: '', cloudQueue: 'http://127.0.0.1:1' }),
      wallNow: () => 0,
    };
    await expect(importBundle(deps, bundle)).rejects.toThrow('disk full');
    expect(queues.list()).toEqual([]);
    expect(store.scenarios.list()).toEqual([]);
    expect(faults.list()).toEqual([]);
    expect(store.faultRules.list()).toEqual([]);
    expect(clock.speed).toBe(0);
    clock.close();
    store.close();
  });
});

describe('a session on a stopped clock', () => {
  let source: Engine;
  let target: Engine;
  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });

  it('replays what happened when a seek lands on the track’s very end: what is due now happens', async () => {
    [source, target] = await Promise.all([startTestEngine({ clockSpeed: 0 }), startTestEngine({ clockSpeed: 0 })]);
    const queue = await ok<QueueSummary>(source, 'POST', '/queues', {
      name: 'Forty seconds',
      items: sampleTracks(1, 4).map((track) => ({ track: { ...track, durationMillis: 40_000 } })),
    });
    const session = await control(source, `/api/v1/groups/${GROUP}/playbackSession:1`, {
      appId: 'com.example.repro',
      appContext: 'seek-to-end',
    });
    const sessionId = (session.body as { sessionId: string }).sessionId;
    await control(source, `/api/v1/playbackSessions/${sessionId}/playbackSession:1/loadCloudQueue`, {
      queueBaseUrl: queue.queueBaseUrl,
      httpAuthorization: queue.httpAuthorization,
      playOnCompletion: true,
    });
    await advance(source, 10_000);
    expect((await control(source, `/api/v1/groups/${GROUP}/playback:1/seek`, { positionMillis: 40_000 })).status).toBe(
      200,
    );
    // The track ended at the seek, though the clock stands still: the skip back goes to its start.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const skipped = await control(source, `/api/v1/groups/${GROUP}/playback:1/skipToPreviousTrack`);
    await advance(source, 1_000);
    const live = await rows(source);
    const bundle = await ok<ReproBundle>(source, 'POST', '/bundles/export', { name: 'Seek to the end' });
    const result = await ok<BundleImportResult>(target, 'POST', '/bundles/import', bundle);
    const report = await ok<ScenarioReport>(target, 'POST', `/scenarios/${result.scenario.id}/run`);
    expect(
      report.steps.filter((s) => s.status !== 'passed'),
      `live skip answered ${skipped.status}`,
    ).toEqual([]);
    expect(await rows(target)).toEqual(live);
  });
});
