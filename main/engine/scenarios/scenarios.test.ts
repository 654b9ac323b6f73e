/**
 * Saved scenarios over the admin API against a real engine: a queue made with the admin
 * API, control commands sent with the console's own token, faults, clock steps and expected
 * transitions; pass, fail with the failing step's message, values saved from answers, bad
 * scenarios refused with nothing saved, and a run over HTTP as CI makes it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StoredScenarioView } from '../api/commands/scenarios.js';
import type { FaultRule } from '../api/fault-types.js';
import type { QueueSummary } from '../api/queue-types.js';
import type { ScenarioReport, ScenarioStep } from '../api/scenario-types.js';
import type { TrafficEntry } from '../api/traffic-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { sessionAndLoad } from './testing-console.js';

let engine: Engine;
let queue: QueueSummary;

const queueItems = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    track: { name: `Track ${i + 1}`, mediaUrl: `https://media.example.com/${i + 1}.mp3`, durationMillis: 240_000 },
  }));

beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  const created = await admin(engine, 'POST', '/queues', {
    name: 'Scenario queue',
    items: queueItems(8),
  });
  expect(created.status).toBe(200);
  queue = created.body as QueueSummary;
});
afterAll(() => engine.close());
beforeEach(async () => {
  await admin(engine, 'DELETE', '/faults');
  await admin(engine, 'DELETE', '/traffic');
});

/** A fresh session on the Kitchen player, its id saved as `${session}`, and the queue loaded and playing. */
function loadAndPlay(): ScenarioStep[] {
  return [
    ...sessionAndLoad('group-kitchen', `\${cloudQueue}/queues/${queue.id}/v2.3/`, queue.httpAuthorization),
    { type: 'clock', advanceMs: 1_000 },
    {
      type: 'expect',
      playerId: 'player-kitchen',
      state: 'PLAYING',
      transitions: ['load-begins', 'load-answered-plays', 'audio-ready'],
    },
  ];
}

async function save(scenario: { id?: string; name: string; steps: ScenarioStep[] }): Promise<StoredScenarioView> {
  const { status, body } = await admin(engine, 'POST', '/scenarios', scenario);
  expect(status, JSON.stringify(body)).toBe(200);
  return body as StoredScenarioView;
}

async function run(id: string): Promise<ScenarioReport> {
  const { status, body } = await admin(engine, 'POST', `/scenarios/${id}/run`);
  expect(status, JSON.stringify(body)).toBe(200);
  return body as ScenarioReport;
}

describe('a scenario that passes', () => {
  it('loads a queue, storms the version poll with 503s, and sees the background retries run out', async () => {
    const scenario = await save({
      name: '503 storm on the version poll',
      steps: [
        ...loadAndPlay(),
        {
          type: 'fault',
          rule: {
            target: 'cloudQueue',
            match: { path: '/version' },
            action: { type: 'status', status: 503, retryAfter: 3 },
          },
        },
        // docs/contract/platform.md §8: the first version poll while playing is 10 minutes in; §7.4: three retries 10 s apart.
        { type: 'clock', advanceMs: 600_000 + 30_000 },
        {
          type: 'expect',
          playerId: 'player-kitchen',
          state: 'PLAYING',
          transitions: ['track-ends-next', 'background-exhausted'],
        },
        { type: 'clearFaults' },
      ],
    });
    const report = await run(scenario.id);
    expect(report.steps.map((s) => [s.type, s.status])).toEqual([
      ['command', 'passed'],
      ['command', 'passed'],
      ['clock', 'passed'],
      ['expect', 'passed'],
      ['fault', 'passed'],
      ['clock', 'passed'],
      ['expect', 'passed'],
      ['clearFaults', 'passed'],
    ]);
    expect(report.passed).toBe(true);
    expect(report.endedAt - report.startedAt).toBe(631_000);
    expect(report.transitions.map((t) => t.transition)).toEqual(
      expect.arrayContaining(['load-answered-plays', 'audio-ready', 'background-exhausted']),
    );
    expect(report.transitions.every((t) => t.playerId === 'player-kitchen')).toBe(true);

    // The four tries of the poll are in the traffic log: the player's with their retry numbers, the
    // server's marked with the injected fault.
    const versionTries = async (target: string) =>
      ((await admin(engine, 'GET', `/traffic?target=${target}`)).body as TrafficEntry[]).filter((e) =>
        e.path.endsWith('/version'),
      );
    expect((await versionTries('player')).map((e) => [e.status, e.retry])).toEqual([
      [503, 0],
      [503, 1],
      [503, 2],
      [503, 3],
    ]);
    expect((await versionTries('cloudQueue')).map((e) => e.fault?.status)).toEqual([503, 503, 503, 503]);
    // The last report is kept with the scenario.
    const stored = (await admin(engine, 'GET', `/scenarios/${scenario.id}`)).body as StoredScenarioView;
    expect(stored.lastReport).toMatchObject({ passed: true, scenarioId: scenario.id });
    expect((await admin(engine, 'GET', '/faults')).body).toEqual([]);
  });
});

describe('after a run', () => {
  it('leaves the console as it found it: clock speed, its own fault rules removed, cleared ones put back with their counts', async () => {
    const mine = (
      await admin(engine, 'POST', '/faults', {
        target: 'cloudQueue',
        match: { path: '/version' },
        action: { type: 'status', status: 500 },
      })
    ).body as FaultRule;
    await admin(engine, 'POST', '/faults', {
      target: 'control',
      match: { path: '/nothing-here' },
      action: { type: 'drop' },
      label: 'second',
    });
    expect((await fetch(`${engine.urls.cloudQueue}/queues/${queue.id}/v2.3/version`)).status).toBe(500);
    const before = (await admin(engine, 'GET', '/faults')).body as FaultRule[];
    expect(before[0]).toMatchObject({ id: mine.id, hits: 1 });

    const scenario = await save({
      name: 'changes the clock and the faults',
      steps: [
        { type: 'clearFaults' },
        {
          type: 'fault',
          rule: {
            target: 'cloudQueue',
            match: { path: '/itemWindow' },
            action: { type: 'status', status: 503, retryAfter: 3 },
          },
        },
        { type: 'fault', rule: { target: 'player', action: { type: 'timeout' } } },
        { type: 'clock', speed: 2 },
        { type: 'command', method: 'GET', path: '/api/v1/households' },
      ],
    });
    const report = await run(scenario.id);
    expect(report.passed).toBe(true);
    expect(report.steps[0]!.message).toBe('2 fault rules removed (2 put back when the run ends)');
    expect(report.restored).toEqual({ clockSpeed: 0, faultsRemoved: 2, faultsPutBack: 2 });
    expect((await admin(engine, 'GET', '/clock')).body).toMatchObject({ speed: 0 });
    expect((await admin(engine, 'GET', '/faults')).body).toEqual(before);
    // Put back, it still works (and counts on from where it stood).
    expect((await fetch(`${engine.urls.cloudQueue}/queues/${queue.id}/v2.3/version`)).status).toBe(500);
    expect(((await admin(engine, 'GET', '/faults')).body as FaultRule[])[0]).toMatchObject({ id: mine.id, hits: 2 });
  });

  it('restores as much after a run that failed', async () => {
    const scenario = await save({
      name: 'fails with a storm on',
      steps: [
        { type: 'fault', rule: { target: 'cloudQueue', action: { type: 'status', status: 503 } } },
        { type: 'clock', speed: 3 },
        { type: 'expect', playerId: 'player-office', state: 'PLAYING' },
      ],
    });
    const report = await run(scenario.id);
    expect(report.passed).toBe(false);
    expect(report.restored).toEqual({ clockSpeed: 0, faultsRemoved: 1, faultsPutBack: 0 });
    expect((await admin(engine, 'GET', '/faults')).body).toEqual([]);
    expect((await admin(engine, 'GET', '/clock')).body).toMatchObject({ speed: 0 });
  });

  it('changes nothing when the run changed nothing, and says one rule in the singular', async () => {
    await admin(engine, 'POST', '/faults', {
      target: 'control',
      match: { path: '/nothing-here' },
      action: { type: 'drop' },
    });
    const scenario = await save({
      name: 'only clears',
      steps: [
        { type: 'clearFaults' },
        { type: 'clearFaults' },
        { type: 'expect', playerId: 'player-kitchen', state: 'IDLE' },
      ],
    });
    const report = await run(scenario.id);
    expect(report.steps.map((s) => s.message)).toEqual([
      '1 fault rule removed (1 put back when the run ends)',
      '0 fault rules removed',
      expect.any(String),
    ]);
    expect(report.restored).toEqual({ clockSpeed: null, faultsRemoved: 0, faultsPutBack: 1 });
  });
});

describe('expectations', () => {
  it('take the wire’s state names as well as the machine’s', async () => {
    const scenario = await save({
      name: 'state names',
      steps: [
        ...loadAndPlay(),
        { type: 'expect', playerId: 'player-kitchen', state: 'PLAYBACK_STATE_PLAYING' },
        { type: 'expect', playerId: 'player-kitchen', state: 'PLAYING' },
        { type: 'expect', playerId: 'player-kitchen', state: 'PLAYBACK_STATE_IDLE' },
      ],
    });
    const report = await run(scenario.id);
    expect(report.steps.slice(-3).map((s) => s.status)).toEqual(['passed', 'passed', 'failed']);
    expect(report.steps.at(-1)!.message).toContain('state is PLAYBACK_STATE_PLAYING, expected PLAYBACK_STATE_IDLE');
  });
});

describe('a scenario that fails', () => {
  it('stops at the first unmet expectation, says why, and skips the rest', async () => {
    const scenario = await save({
      name: '404 on itemWindow (wrong expectation)',
      steps: [
        ...loadAndPlay(),
        {
          type: 'fault',
          rule: {
            target: 'cloudQueue',
            match: { path: '/itemWindow' },
            action: { type: 'status', status: 404 },
            times: 1,
          },
        },
        {
          type: 'command',
          method: 'POST',
          path: '/api/v1/playbackSessions/${session}/playbackSession:1/refreshCloudQueue',
        },
        // Wrong on purpose: a 404 on itemWindow empties the queue (docs/contract/platform.md §3), it does not pause.
        {
          type: 'expect',
          playerId: 'player-kitchen',
          state: 'PAUSED',
          transitions: ['refresh-command', 'window-answered'],
        },
        { type: 'clock', advanceMs: 60_000 },
        { type: 'expect', playerId: 'player-kitchen', state: 'IDLE' },
      ],
    });
    const report = await run(scenario.id);
    expect(report.passed).toBe(false);
    expect(report.steps.map((s) => s.status)).toEqual([
      'passed',
      'passed',
      'passed',
      'passed',
      'passed',
      'passed',
      'failed',
      'skipped',
      'skipped',
    ]);
    const failed = report.steps[6]!;
    expect(failed).toMatchObject({ index: 6, type: 'expect' });
    expect(failed.message).toContain('state is IDLE, expected PAUSED');
    expect(failed.message).toContain(
      'no window-answered transition after refresh-command (saw: refresh-command, window-not-found)',
    );
    expect(report.steps[7]!.message).toBe('not run: an earlier step failed');

    // A missing row that repeats an earlier one names the row listed just before it.
    const twice = await save({
      name: 'a row listed twice',
      steps: [
        ...loadAndPlay().slice(0, -1),
        { type: 'expect', playerId: 'player-kitchen', transitions: ['load-begins', 'audio-ready', 'load-begins'] },
      ],
    });
    const again = await run(twice.id);
    expect(again.steps.at(-1)!.message).toContain('no load-begins transition after audio-ready (saw: load-begins,');
    // What actually happened is in the report: the 404 emptied the queue.
    expect(report.transitions.at(-1)).toMatchObject({ transition: 'window-not-found', from: 'PLAYING', to: 'IDLE' });
    expect(
      ((await admin(engine, 'GET', `/scenarios/${scenario.id}`)).body as StoredScenarioView).lastReport,
    ).toMatchObject({ passed: false });
  });

  it('fails a command that answers another status than expected, with the answer in the message', async () => {
    const scenario = await save({
      name: 'load without a session',
      steps: [
        {
          type: 'command',
          method: 'POST',
          path: '/api/v1/playbackSessions/no-such-session/playbackSession:1/loadCloudQueue',
          body: { queueBaseUrl: queue.queueBaseUrl },
        },
        { type: 'clearFaults' },
      ],
    });
    const report = await run(scenario.id);
    expect(report.passed).toBe(false);
    expect(report.steps[0]!.message).toMatch(
      /^POST \/api\/v1\/playbackSessions\/no-such-session\/playbackSession:1\/loadCloudQueue answered 4\d\d, expected 200: .*ERROR_/,
    );
    expect(report.steps[1]).toMatchObject({ status: 'skipped' });
  });

  it('expects a refused command when told to', async () => {
    const scenario = await save({
      name: 'refused on purpose',
      steps: [
        {
          type: 'command',
          method: 'POST',
          path: '/api/v1/playbackSessions/no-such-session/playbackSession:1/refreshCloudQueue',
          expectStatus: 404,
        },
      ],
    });
    const report = await run(scenario.id);
    expect(report.passed, report.steps[0]!.message).toBe(true);
    expect(report.steps[0]!.message).toBe(
      'POST /api/v1/playbackSessions/no-such-session/playbackSession:1/refreshCloudQueue → 404',
    );
  });
});

describe('values saved from answers', () => {
  it('puts a saved sessionId into later paths', async () => {
    const scenario = await save({ name: 'saved session', steps: loadAndPlay() });
    const report = await run(scenario.id);
    expect(report.passed, JSON.stringify(report.steps)).toBe(true);
    const detail = (await admin(engine, 'GET', '/players/player-kitchen/detail')).body as { sessionId: string };
    expect(report.steps[1]!.message).toBe(
      `POST /api/v1/playbackSessions/${detail.sessionId}/playbackSession:1/loadCloudQueue → 200`,
    );
  });

  it('saves nested fields and fills them into later paths', async () => {
    const scenario = await save({
      name: 'nested',
      steps: [
        { type: 'command', method: 'GET', path: '/api/v1/households', save: { household: 'households.0.id' } },
        { type: 'command', method: 'GET', path: '/api/v1/households/${household}/groups' },
      ],
    });
    const report = await run(scenario.id);
    expect(report.steps[1]).toMatchObject({
      status: 'passed',
      message: expect.stringMatching(/^GET \/api\/v1\/households\/[^/]+\/groups → 200$/),
    });
    expect(report.steps[1]!.message).not.toContain('${');
  });

  it('fills saved values into a body as values (a quote stays in its string)', async () => {
    const renamed = await admin(engine, 'PATCH', '/players/player-office', { name: 'Office "A", appContext: x' });
    expect(renamed.status).toBe(200);
    try {
      const scenario = await save({
        name: 'values as values',
        steps: [
          { type: 'command', method: 'GET', path: '/api/v1/households', save: { household: 'households.0.id' } },
          {
            type: 'command',
            method: 'GET',
            path: '/api/v1/households/${household}/groups',
            save: { name: 'players.2.name', constructor: 'players.2.id' },
          },
          {
            type: 'command',
            method: 'POST',
            path: '/api/v1/groups/group-office/playbackSession:1',
            body: { appId: '${name}', appContext: '${constructor}' },
            save: { session: 'sessionId' },
          },
        ],
      });
      const report = await run(scenario.id);
      expect(report.steps.map((s) => s.status)).toEqual(['passed', 'passed', 'passed']);
      const sent = (
        await admin(engine, 'POST', '/commands/traffic.page', {
          filter: { target: 'control', text: 'group-office/playbackSession' },
          offset: 0,
          limit: 10,
        })
      ).body as { rows: { id: number }[] };
      const first = (await admin(engine, 'GET', `/traffic/${sent.rows[0]!.id}?reveal=true`)).body as TrafficEntry;
      expect(JSON.parse(first.requestBody!)).toEqual({
        appId: 'Office "A", appContext: x',
        appContext: 'player-office',
      });
    } finally {
      await admin(engine, 'PATCH', '/players/player-office', { name: 'Office' });
    }
  });

  it('fails a step whose answer lacks the field to save', async () => {
    const scenario = await save({
      name: 'nothing to save',
      steps: [{ type: 'command', method: 'GET', path: '/api/v1/households', save: { x: 'nothing.here' } }],
    });
    const report = await run(scenario.id);
    expect(report).toMatchObject({
      passed: false,
      steps: [{ status: 'failed', message: 'the answer of /api/v1/households has no nothing.here to save as x' }],
    });
  });
});

describe('bad scenarios', () => {
  it.each([
    ['no steps', { name: 'empty', steps: [] }, '/steps'],
    ['no name', { steps: [{ type: 'clearFaults' }] }, '/'],
    ['an unknown step', { name: 'x', steps: [{ type: 'teleport' }] }, '/steps/0/type must be one of'],
    [
      'a negative clock step',
      { name: 'x', steps: [{ type: 'clock', advanceMs: -1 }] },
      '/steps/0/advanceMs must be >= 0',
    ],
    [
      'a command outside the control API',
      { name: 'x', steps: [{ type: 'command', method: 'POST', path: '/admin/api/faults' }] },
      '/steps/0/path',
    ],
    [
      'a fault rule that cannot be',
      { name: 'x', steps: [{ type: 'fault', rule: { target: 'player', action: { type: 'drop' }, probability: 2 } }] },
      '/steps/0/rule/probability',
    ],
    [
      'an unknown state',
      { name: 'x', steps: [{ type: 'expect', playerId: 'player-kitchen', state: 'DANCING' }] },
      '/steps/0/state must be one of',
    ],
    [
      'a value no step saves (the run could only fail at it)',
      {
        name: 'x',
        steps: [
          { type: 'command', method: 'GET', path: '/api/v1/households', save: { household: 'households.0.id' } },
          { type: 'command', method: 'POST', path: '/api/v1/playbackSessions/${nope}/playbackSession:1/suspend' },
        ],
      },
      '/steps/1 uses ${nope}, which no step before it saves and no service is named',
    ],
    [
      'a variable of a form the runner never fills (audit: `${token:…}` went out as written)',
      {
        name: 'x',
        steps: [
          {
            type: 'command',
            method: 'POST',
            path: '/api/v1/playbackSessions/s-1/playbackSession:1/loadCloudQueue',
            body: { queueBaseUrl: '${cloudQueue}/queues/q/v2.3/', httpAuthorization: 'Bearer ${token:queue-zzz}' },
          },
        ],
      },
      '/steps/0 uses ${token:queue-zzz}, which no step before it saves',
    ],
    [
      'a value used before the step that saves it',
      {
        name: 'x',
        steps: [
          { type: 'command', method: 'GET', path: '/api/v1/households/${household}/groups' },
          { type: 'command', method: 'GET', path: '/api/v1/households', save: { household: 'households.0.id' } },
        ],
      },
      '/steps/0 uses ${household}',
    ],
    [
      'a name every object has (toString) in a body',
      {
        name: 'x',
        steps: [
          {
            type: 'command',
            method: 'POST',
            path: '/api/v1/groups/group-office/playbackSession:1',
            body: { appId: '${toString}', appContext: 'x' },
          },
        ],
      },
      '/steps/0 uses ${toString}',
    ],
  ])('%s: 400 with the reason, nothing saved', async (_what, scenario, message) => {
    const before = ((await admin(engine, 'GET', '/scenarios')).body as unknown[]).length;
    const { status, body } = await admin(engine, 'POST', '/scenarios', scenario);
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { code: 'invalid_input', message: expect.stringContaining(message) } });
    expect(((await admin(engine, 'GET', '/scenarios')).body as unknown[]).length).toBe(before);
  });

  it.each([
    [
      'only clock and fault steps',
      [
        { type: 'clearFaults' },
        { type: 'fault', rule: { target: 'cloudQueue', action: { type: 'status', status: 500 } } },
        { type: 'clock', advanceMs: 60_000 },
      ],
      /scenario x: checks nothing: none of its 3 steps is an expectation or a call whose answer is checked/,
    ],
    [
      'an expectation that names nothing',
      [
        { type: 'clock', advanceMs: 1 },
        { type: 'expect', playerId: 'player-kitchen' },
      ],
      /step 2 \(expect player-kitchen\) names nothing to check/,
    ],
    [
      // A call whose outcome is not judged fails on nothing (review).
      'only calls whose outcomes are not checked',
      [
        { type: 'clearFaults' },
        {
          type: 'command',
          method: 'POST',
          path: '/api/v1/playbackSessions/s/playbackSession:1/pause',
          outcomeNotChecked: 'a player was loaded with a token of no queue of this console',
        },
        { type: 'action', playerId: 'player-kitchen', action: 'pause', pendingAtExport: true },
      ],
      /scenario x: checks nothing: none of its 3 steps/,
    ],
    [
      // Run, each failed as if the console had done wrong, where `run FILE` refused the file (audit X9).
      'a transition no row has and a player the console lacks',
      [
        { type: 'clock', advanceMs: 1 },
        { type: 'expect', playerId: 'player-kitchen', transitions: ['zzz'] },
        { type: 'expect', playerId: 'player-garage', state: 'PLAYBACK_STATE_IDLE' },
      ],
      /^scenario x names what no run can meet: step 2 \(expect\) names transition zzz, which no row of the player's table has; step 3 \(expect\) names player player-garage, which this console does not have\. The players are .*player-kitchen.*; the transition names are the rows of GET \/admin\/api\/player-table$/,
    ],
  ])('a run of %s is refused (400), never a PASS that says nothing', async (_what, steps, message) => {
    const saved = await save({ name: 'x', steps: steps as ScenarioStep[] });
    const clock = (await admin(engine, 'GET', '/clock')).body;
    const { status, body } = await admin(engine, 'POST', `/scenarios/${saved.id}/run`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: { code: 'invalid_input', message: expect.stringMatching(message) } });
    // Nothing ran: no fault rule added, the clock where it was, no report kept.
    expect((await admin(engine, 'GET', '/faults')).body).toEqual([]);
    expect((await admin(engine, 'GET', '/clock')).body).toEqual(clock);
    expect((await admin(engine, 'GET', `/scenarios/${saved.id}`)).body).toMatchObject({ lastReport: null });
  });

  it('answers 404 for a scenario that does not exist', async () => {
    expect((await admin(engine, 'POST', '/scenarios/no-such-scenario/run')).status).toBe(404);
    expect((await admin(engine, 'DELETE', '/scenarios/no-such-scenario')).status).toBe(404);
  });
});

describe('a run watched live', () => {
  it('says the run’s start with each step, the start its report gives (audit: the terminal was 1 ms off the JUnit report)', async () => {
    const scenario = await save({ name: 'watched', steps: loadAndPlay() });
    const starts: number[] = [];
    const stop = engine.events.on('scenarios.step', ({ scenarioId, startedAt }) => {
      if (scenarioId === scenario.id) starts.push(startedAt);
    });
    // The clock runs here, so the watcher's own reading before the run is not the run's start.
    await admin(engine, 'POST', '/clock', { speed: 1 });
    try {
      const report = await run(scenario.id);
      expect(starts.length).toBeGreaterThan(0);
      expect(new Set(starts)).toEqual(new Set([report.startedAt]));
    } finally {
      stop();
      await admin(engine, 'POST', '/clock', { speed: 0 });
    }
  });
});

describe('as CI runs it', () => {
  it('saves under a chosen id, runs with POST /admin/api/scenarios/{id}/run, and reads pass or fail from the answer', async () => {
    const base = `${engine.urls.console}/admin/api`;
    const headers = { authorization: `Bearer ${engine.adminToken}`, 'content-type': 'application/json' };
    const saved = await fetch(`${base}/scenarios`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ id: 'ci-smoke', name: 'CI smoke', description: 'loads and plays', steps: loadAndPlay() }),
    });
    expect(saved.status).toBe(200);
    // Saving again under the same id edits it, it does not add another.
    await fetch(`${base}/scenarios`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ id: 'ci-smoke', name: 'CI smoke (edited)', steps: loadAndPlay() }),
    });
    const all = (await (await fetch(`${base}/scenarios`, { headers })).json()) as StoredScenarioView[];
    expect(all.filter((s) => s.id === 'ci-smoke').map((s) => s.name)).toEqual(['CI smoke (edited)']);

    const response = await fetch(`${base}/scenarios/ci-smoke/run`, {
      method: 'POST',
      headers: { authorization: headers.authorization },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const report = (await response.json()) as ScenarioReport;
    expect(report).toMatchObject({ scenarioId: 'ci-smoke', name: 'CI smoke (edited)', passed: true });
    expect(report.wallMs).toBeGreaterThanOrEqual(0);

    // Without the admin token there is no run.
    expect((await fetch(`${base}/scenarios/ci-smoke/run`, { method: 'POST' })).status).toBe(401);
    expect(
      (
        await fetch(`${base}/scenarios/ci-smoke`, {
          method: 'DELETE',
          headers: { authorization: headers.authorization },
        })
      ).status,
    ).toBe(200);
  });
});

describe('steps that wait for engine time while the clock is stopped', () => {
  let skipQueue: QueueSummary;
  beforeAll(async () => {
    skipQueue = (
      await admin(engine, 'POST', '/queues', {
        name: 'Limited skips',
        items: queueItems(8),
        playbackPolicies: { limitedSkips: true },
      })
    ).body as QueueSummary;
  });

  /** Loads the limitedSkips queue on the Office player; a skip then waits for the server (docs/contract/platform.md §4.3). */
  const playOnOffice = (): ScenarioStep[] => [
    { type: 'clock', speed: 0 },
    {
      type: 'command',
      method: 'POST',
      path: '/api/v1/groups/group-office/playbackSession:1',
      body: { appId: 'com.example.scenarios', appContext: 'ci' },
      save: { office: 'sessionId' },
    },
    {
      type: 'command',
      method: 'POST',
      path: '/api/v1/playbackSessions/${office}/playbackSession:1/loadCloudQueue',
      body: {
        queueBaseUrl: skipQueue.queueBaseUrl,
        httpAuthorization: skipQueue.httpAuthorization,
        playOnCompletion: true,
      },
    },
    { type: 'clock', advanceMs: 1_000 },
    {
      type: 'fault',
      rule: {
        target: 'cloudQueue',
        match: { reason: 'skipNext' },
        action: { type: 'status', status: 503, retryAfter: 3 },
      },
    },
  ];

  it('a skip retried after Retry-After runs on while a later clock step moves time, and counts once it ends', async () => {
    const scenario = await save({
      name: 'skip into a 503 storm',
      steps: [
        ...playOnOffice(),
        // docs/contract/platform.md §7.2: 503 retried 3 times after Retry-After, then the player gives up and idles.
        { type: 'action', playerId: 'player-office', action: 'skipNext', expectError: true },
        { type: 'clock', advanceMs: 10_000 },
        {
          type: 'expect',
          playerId: 'player-office',
          state: 'IDLE',
          transitions: ['skip-asks-server', 'foreground-failed'],
        },
      ],
    });
    const report = await run(scenario.id);
    expect(report.passed, JSON.stringify(report.steps)).toBe(true);
    expect(report.steps[5]!.message).toMatch(/^skipNext refused as expected: .*\(once the clock moved\)$/);
    const tries = ((await admin(engine, 'GET', '/traffic?target=player&reason=skipNext')).body as TrafficEntry[]).map(
      (e) => [e.status, e.retry],
    );
    expect(tries).toEqual([
      [503, 0],
      [503, 1],
      [503, 2],
      [503, 3],
    ]);
  });

  it('fails at the step that waited when its outcome is not the expected one, and skips what follows', async () => {
    const scenario = await save({
      name: 'skip expected to work',
      steps: [
        ...playOnOffice(),
        { type: 'action', playerId: 'player-office', action: 'skipNext' },
        { type: 'clock', advanceMs: 10_000 },
        { type: 'expect', playerId: 'player-office', state: 'PLAYING' },
      ],
    });
    const report = await run(scenario.id);
    expect(report.passed).toBe(false);
    expect(report.steps.slice(5).map((s) => s.status)).toEqual(['failed', 'passed', 'skipped']);
    expect(report.steps[5]!.message).toMatch(/^skipNext at player-office failed: /);
    // Settled: the report no longer says it waits.
    expect(report.steps[5]!.waiting).toBeUndefined();
  });

  it('fails a step still waiting when the run ends, instead of hanging', async () => {
    const scenario = await save({
      name: 'nobody moves the clock',
      steps: [...playOnOffice(), { type: 'action', playerId: 'player-office', action: 'skipNext', expectError: true }],
    });
    const report = await run(scenario.id);
    expect(report.passed).toBe(false);
    expect(report.steps[5]).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('still waiting for engine time when the run ended'),
    });
    // The engine is not stuck: the next run goes.
    await admin(engine, 'DELETE', '/faults');
    const after = await save({
      name: 'after',
      steps: [
        { type: 'clock', advanceMs: 60_000 },
        { type: 'command', method: 'GET', path: '/api/v1/households' },
      ],
    });
    expect((await run(after.id)).passed).toBe(true);
  });

  it('a load whose first window times out waits for the clock too (docs/contract/platform.md §7.3: the command fails, no retry)', async () => {
    const scenario = await save({
      name: 'load into a timeout',
      steps: [
        ...playOnOffice(),
        {
          type: 'fault',
          rule: {
            target: 'cloudQueue',
            match: { path: '/itemWindow', reason: 'load' },
            action: { type: 'timeout' },
            times: 1,
          },
        },
        {
          type: 'command',
          method: 'POST',
          path: '/api/v1/playbackSessions/${office}/playbackSession:1/loadCloudQueue',
          body: { queueBaseUrl: skipQueue.queueBaseUrl, httpAuthorization: skipQueue.httpAuthorization },
          expectStatus: 502,
        },
        { type: 'clock', advanceMs: 10_000 },
        { type: 'expect', playerId: 'player-office', state: 'PLAYING', transitions: ['load-begins', 'load-failed'] },
      ],
    });
    const report = await run(scenario.id);
    expect(report.passed, JSON.stringify(report.steps)).toBe(true);
    expect(report.steps[6]!.message).toContain('→ 502 (once the clock moved)');
  });
});
