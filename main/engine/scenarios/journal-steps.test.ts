/**
 * The steps a bundle's journal adds, written by hand in a saved scenario: a rule named by its
 * `fault` step and then triggered, moved and removed by that name; Send now; a queue edit whose
 * new items later steps name. A name no step gave fails the step with the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredScenarioView } from '../api/commands/scenarios.js';
import type { FaultRule } from '../api/fault-types.js';
import type { QueueSummary, QueueView } from '../api/queue-types.js';
import type { ScenarioReport, ScenarioStep } from '../api/scenario-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { sessionAndLoad } from './testing-console.js';

let engine: Engine;
let queue: QueueSummary;

beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
  const items = Array.from({ length: 6 }, (_, i) => ({
    track: { name: `Track ${i + 1}`, mediaUrl: `https://media.example.com/${i + 1}.mp3`, durationMillis: 240_000 },
  }));
  queue = (await admin(engine, 'POST', '/queues', { name: 'Journal steps', items })).body as QueueSummary;
});
afterAll(() => engine.close());

async function runSteps(steps: ScenarioStep[]): Promise<ScenarioReport> {
  const saved = await admin(engine, 'POST', '/scenarios', { name: 'journal steps', steps });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return (await admin(engine, 'POST', `/scenarios/${(saved.body as StoredScenarioView).id}/run`))
    .body as ScenarioReport;
}

const playing = (): ScenarioStep[] => [
  { type: 'clearFaults' },
  { type: 'clock', speed: 0 },
  ...sessionAndLoad('group-kitchen', `\${cloudQueue}/queues/${queue.id}/v2.3/`, queue.httpAuthorization),
  { type: 'clock', advanceMs: 1_000 },
];

describe('a hand-written scenario with a queue of its own', () => {
  it('creates the queue, saves its base URL and Authorization, and plays it', async () => {
    const report = await runSteps([
      { type: 'clock', speed: 0 },
      {
        type: 'queueEdit',
        command: 'queues.create',
        input: {
          name: 'made by the scenario',
          items: [1, 2, 3].map((n) => ({
            track: { name: `Own ${n}`, mediaUrl: `https://media.example.com/${n}.mp3`, durationMillis: 60_000 },
          })),
        },
        saveQueue: 'own',
        // A queue made answers no item ids of its own: they are read from it (outsider: "made 0 items").
        saveItemIds: ['first', 'second', 'third'],
      },
      ...sessionAndLoad('group-living-room', '${own.queueBaseUrl}', '${own.httpAuthorization}', {
        itemId: '${second}',
      }),
      { type: 'clock', advanceMs: 1_000 },
      { type: 'expect', playerId: 'player-living-room', state: 'PLAYING', itemId: '${second}' },
      { type: 'queueEdit', command: 'queues.items.generate', input: { id: '${own.id}', count: 2 } },
    ]);
    expect(
      report.steps.filter((s) => s.status !== 'passed'),
      JSON.stringify(report.steps),
    ).toEqual([]);
    expect(report.steps[1]!.message).toMatch(/^queues\.create made queue-[\w-]+$/);
    const queues = (await admin(engine, 'GET', '/queues')).body as { name: string; itemCount: number }[];
    expect(queues.find((q) => q.name === 'made by the scenario')).toMatchObject({ itemCount: 5 });
  });

  it("refuses a queueEdit whose input its command would refuse (400), judging a variable's value once filled", async () => {
    const saved = await admin(engine, 'POST', '/scenarios', {
      name: 'bad queue edits',
      steps: [
        { type: 'queueEdit', command: 'queues.items.add', input: { queueId: queue.id } },
        { type: 'queueEdit', command: 'queues.items.generate', input: { id: queue.id, count: -5 } },
        { type: 'expect', playerId: 'player-kitchen', state: 'IDLE' },
      ],
    });
    expect(saved.status).toBe(400);
    const { message } = (saved.body as { error: { message: string } }).error;
    expect(message).toMatch(/\/steps\/0\/input must have required properties id, items/);
    expect(message).toMatch(/\/steps\/1\/input\/count must be >= 1/);
    // A value a variable fills is the run's to judge: a scenario's own queue's id is one.
    const filled = await admin(engine, 'POST', '/scenarios', {
      name: 'filled queue edits',
      steps: [
        {
          type: 'queueEdit',
          command: 'queues.create',
          input: { name: 'own', items: [{ track: { name: 'A', mediaUrl: 'https://media.example.com/a.mp3' } }] },
          saveQueue: 'own',
        },
        { type: 'queueEdit', command: 'queues.items.generate', input: { id: '${own.id}', count: 2 } },
        { type: 'expect', playerId: 'player-kitchen', state: 'IDLE' },
      ],
    });
    expect(filled.status, JSON.stringify(filled.body)).toBe(200);
  });

  it('refuses a `${name.…}` that no queueEdit before it saved (400)', async () => {
    const saved = await admin(engine, 'POST', '/scenarios', {
      name: 'uses a queue nobody made',
      steps: [{ type: 'queueEdit', command: 'queues.items.generate', input: { id: '${other.id}', count: 2 } }],
    });
    expect(saved.status).toBe(400);
    expect(JSON.stringify(saved.body)).toContain('/steps/0 uses ${other.id}');
  });
});

describe('journal steps in a scenario', () => {
  it('trigger, move and remove a rule by its name, send a request now, and edit a queue', async () => {
    const report = await runSteps([
      ...playing(),
      {
        type: 'fault',
        ref: 'storm',
        rule: { target: 'cloudQueue', action: { type: 'status', status: 503 }, label: 'storm' },
      },
      {
        type: 'fault',
        ref: 'gone',
        rule: {
          target: 'cloudQueue',
          match: { method: 'GET', path: '/itemWindow' },
          action: { type: 'status', status: 404 },
          times: 1,
        },
      },
      { type: 'faultTrigger', rule: 'gone', playerId: 'player-kitchen' },
      { type: 'faultMove', rule: 'gone', toIndex: 0 },
      { type: 'clock', advanceMs: 10_000 },
      { type: 'faultRemove', rule: 'storm' },
      {
        type: 'expect',
        playerId: 'player-kitchen',
        state: 'IDLE',
        transitions: ['refresh-command', 'window-not-found'],
      },
      {
        type: 'queueEdit',
        command: 'queues.items.add',
        input: { id: queue.id, items: [{ track: { name: 'Added', mediaUrl: 'https://media.example.com/added.mp3' } }] },
        saveItemIds: ['added'],
      },
      {
        type: 'queueEdit',
        command: 'queues.items.move',
        input: { id: queue.id, itemIds: ['${added}'], afterItemId: null },
      },
      // The player is idle: Send now is refused, as expected.
      { type: 'trigger', playerId: 'player-kitchen', request: 'refresh', expectError: true },
    ]);
    expect(report.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(report.passed).toBe(true);
    // The run puts the console back: its rules are gone; the queue edit stays, as any edit does.
    expect((await admin(engine, 'GET', '/faults')).body as FaultRule[]).toEqual([]);
    expect(((await admin(engine, 'GET', `/queues/${queue.id}`)).body as QueueView).items[0]!.track.name).toBe('Added');
  });

  it("fills a saved item id in an expect's itemId, and refuses one no step before it saves (400)", async () => {
    const report = await runSteps([
      { type: 'clearFaults' },
      { type: 'clock', speed: 0 },
      {
        type: 'queueEdit',
        command: 'queues.items.add',
        input: { id: queue.id, items: [{ track: { name: 'Expected', mediaUrl: 'https://media.example.com/e.mp3' } }] },
        saveItemIds: ['added'],
      },
      ...sessionAndLoad('group-kitchen', `\${cloudQueue}/queues/${queue.id}/v2.3/`, queue.httpAuthorization, {
        itemId: '${added}',
      }),
      { type: 'clock', advanceMs: 1_000 },
      { type: 'expect', playerId: 'player-kitchen', itemId: '${added}' },
    ]);
    expect(report.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    const saved = await admin(engine, 'POST', '/scenarios', {
      name: 'unsaved item',
      steps: [{ type: 'expect', playerId: 'player-kitchen', itemId: '${nope}' }],
    });
    expect(saved.status).toBe(400);
    expect(JSON.stringify(saved.body)).toContain('/steps/0 uses ${nope}');
  });

  it('makes a call whose answer it does not check, and says why, where the bundle cannot make it as it was', async () => {
    const call = {
      type: 'command' as const,
      method: 'POST' as const,
      path: '/api/v1/playbackSessions/no-such-session/playbackSession:1/skipNext',
    };
    // A session made, as a bundle's is: a step that checks, without which the run would check nothing.
    const made = sessionAndLoad('group-kitchen', '', '')[0]!;
    const unchecked = await runSteps([
      made,
      { ...call, outcomeNotChecked: 'its session was loaded with a token the bundle does not carry' },
    ]);
    expect(unchecked.passed).toBe(true);
    expect(unchecked.steps[1]!.message).toMatch(
      /→ 404 \(not checked: its session was loaded with a token the bundle does not carry\)$/,
    );
    // Marked so in the report too, for what counts the calls judged (JUnit): not by its words.
    expect(unchecked.steps[1]).toMatchObject({ status: 'passed', notJudged: true });
    expect(unchecked.steps[0]).not.toHaveProperty('notJudged');
    const checked = await runSteps([
      { type: 'clearFaults' },
      call,
      { type: 'expect', playerId: 'player-kitchen', state: 'IDLE' },
    ]);
    expect(checked.passed).toBe(false);
  });

  it('refuses a scenario whose step names a rule no fault step before it named, before it runs (400)', async () => {
    const saved = await admin(engine, 'POST', '/scenarios', {
      name: 'unknown ref',
      steps: [{ type: 'clearFaults' }, { type: 'faultRemove', rule: 'nothing' }],
    });
    expect(saved.status).toBe(400);
    expect(saved.body).toMatchObject({
      error: {
        code: 'invalid_input',
        message: expect.stringContaining('/steps/1 names rule nothing, which no fault step before it names with "ref"'),
      },
    });
    // Named by a fault step before it: taken.
    const report = await runSteps([
      { type: 'clearFaults' },
      { type: 'fault', ref: 'nothing', rule: { target: 'player', action: { type: 'drop' } } },
      { type: 'faultRemove', rule: 'nothing' },
      { type: 'expect', playerId: 'player-kitchen', state: 'IDLE' },
    ]);
    expect(report.steps[2]).toMatchObject({ status: 'passed' });
  });

  it('refuses a step with a field it does not know, and an expect with an empty transitions list (400)', async () => {
    for (const [step, message] of [
      [{ type: 'expect', playerId: 'player-kitchen', state: 'PLAYING', itemID: 'item-5' }, 'itemID'],
      [{ type: 'expect', playerId: 'player-kitchen', transitions: [] }, '/steps/0/transitions'],
      [{ type: 'fault', rule: { target: 'player', action: { type: 'drop' } }, times: 2 }, 'times'],
    ] as const) {
      const saved = await admin(engine, 'POST', '/scenarios', { name: 'unknown field', steps: [step] });
      expect(saved.status, JSON.stringify(saved.body)).toBe(400);
      expect(JSON.stringify(saved.body)).toContain(message);
    }
  });

  it('fails a Send now the player refuses when it was not expected to be', async () => {
    const report = await runSteps([{ type: 'trigger', playerId: 'player-office', request: 'refresh' }]);
    expect(report.steps[0]).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/^refresh sent by player-office failed: /),
    });
  });
});
