/**
 * The engine journal: every state-changing call of the command table and of the control API, in
 * the order the calls began, on the engine clock; bounded; no token kept in clear; the fault rules
 * as they stood before any call.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FaultRule } from '../api/fault-types.js';
import type { QueueSummary } from '../api/queue-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { Journal } from './journal.js';
import { withTokenRefs } from './secrets.js';
import type { ScenarioStep } from '../api/scenario-types.js';

const rule = (id: string): FaultRule => ({
  id,
  target: 'cloudQueue',
  match: {},
  action: { type: 'timeout' },
  hits: 0,
  passes: 0,
  spent: false,
  createdAt: 0,
});

describe('a journal', () => {
  it('keeps calls in the order they began, drops the oldest past its cap, and keeps what they did to the rules', () => {
    let now = 1_000;
    let rules: FaultRule[] = [];
    const journal = new Journal({ now: () => now, rules: () => rules, capacity: 3 });
    const slow = journal.begin('players.act');
    now += 10;
    const fast = journal.begin('faults.add');
    expect(journal.pending().map((call) => call.what)).toEqual(['players.act', 'faults.add']);
    rules = [rule('a')];
    journal.recordCommand(fast, { kind: 'command', name: 'faults.add', input: {}, ok: true, rules });
    // Until it ends, a call is pending: an export then cannot replay it.
    expect(journal.pending()).toEqual([{ seq: slow.seq, at: 1_000, what: 'players.act' }]);
    journal.recordCommand(slow, {
      kind: 'command',
      name: 'players.act',
      input: { id: 'p', action: 'skipNext' },
      ok: true,
    });
    expect(journal.pending()).toEqual([]);
    expect(journal.entries().map((e) => [e.seq, e.at])).toEqual([
      [slow.seq, 1_000],
      [fast.seq, 1_010],
    ]);
    expect(journal.rulesBefore(fast.seq)).toEqual([]);
    expect(journal.rulesBefore(fast.seq + 1).map((r) => r.id)).toEqual(['a']);
    for (const id of ['b', 'c', 'd']) {
      rules = [...rules, rule(id)];
      journal.recordCommand(journal.begin('test'), { kind: 'command', name: 'faults.add', input: {}, ok: true, rules });
    }
    expect(journal.entries()).toHaveLength(3);
    expect(journal.lostBefore()).toBe(1_010);
    // What the dropped entries did to the rules is the base of what follows.
    const oldest = journal.entries()[0]!;
    expect(journal.rulesBefore(oldest.seq).map((r) => r.id)).toEqual(['a']);
    journal.close();
    journal.recordCommand(journal.begin('test'), { kind: 'command', name: 'faults.clear', input: {}, ok: true });
    expect(journal.entries()).toEqual([]);
  });
});

describe('the rules a journal began with', () => {
  it('keeps them with their hits then, until entries after them are dropped for room', () => {
    let rules: FaultRule[] = [{ ...rule('kept'), times: 1, hits: 0 }];
    const journal = new Journal({ now: () => 5_000, rules: () => rules, capacity: 2 });
    // Hit afterwards: the journal's copy is still as the start had it.
    rules = [{ ...rules[0]!, hits: 1, spent: true }];
    expect(journal.rulesAtStart()).toEqual([{ ...rule('kept'), times: 1, hits: 0 }]);
    for (let i = 0; i < 3; i++)
      journal.recordCommand(journal.begin('test'), { kind: 'command', name: 'faults.add', input: {}, ok: true, rules });
    expect(journal.rulesAtStart()).toBeNull();
  });
});

describe('tokens in control calls', () => {
  it('become a reference to their queue, or are not kept at all', () => {
    const owner = (token: string) => (token === 'secret-1' ? 'queue-1' : undefined);
    expect(withTokenRefs({ queueBaseUrl: 'u', httpAuthorization: 'Bearer secret-1' }, owner)).toEqual({
      queueBaseUrl: 'u',
      httpAuthorization: 'Bearer ${token:queue-1}',
    });
    expect(JSON.stringify(withTokenRefs({ httpAuthorization: 'Bearer other-secret' }, owner))).not.toContain(
      'other-secret',
    );
  });
});

describe('the engine journal', () => {
  let engine: Engine;
  afterEach(() => engine.close());

  it('records what the command table and the control API changed, and nothing that only read', async () => {
    engine = await startTestEngine({ clockSpeed: 0 });
    const queue = (
      await admin(engine, 'POST', '/queues', {
        name: 'Q',
        items: [{ track: { name: 'A', mediaUrl: 'https://media.example.com/a.mp3', durationMillis: 60_000 } }],
      })
    ).body as QueueSummary;
    const session = (
      await admin(engine, 'POST', '/control/send', {
        method: 'POST',
        path: '/api/v1/groups/group-kitchen/playbackSession',
        body: { appId: 'a', appContext: 'b' },
      })
    ).body as { body: { sessionId: string } };
    await admin(engine, 'POST', '/control/send', {
      method: 'POST',
      path: `/api/v1/playbackSessions/${session.body.sessionId}/playbackSession/loadCloudQueue`,
      body: { queueBaseUrl: queue.queueBaseUrl, httpAuthorization: queue.httpAuthorization },
    });
    await admin(engine, 'POST', '/clock', { advanceMs: 2_000 });
    await admin(engine, 'POST', '/faults/presets/503-storm', {});
    await admin(engine, 'POST', '/players/player-kitchen/trigger', { request: 'refresh' });
    // Refused: the player has no such request waiting, and says why; the replay must be refused too.
    expect((await admin(engine, 'POST', '/players/player-kitchen/trigger', { request: 'pause' })).status).toBe(409);
    await admin(engine, 'GET', '/faults');
    await admin(engine, 'POST', '/clock', { advanceMs: 1_000 });
    const bundle = (await admin(engine, 'POST', '/bundles/export', {})).body as { scenario: { steps: ScenarioStep[] } };
    const steps = bundle.scenario.steps.filter((s) => s.type !== 'clock' || s.advanceMs === undefined);
    expect(steps.map((s) => (s.type === 'command' ? s.path.split('/').at(-1) : s.type))).toEqual([
      'clearFaults',
      'clock',
      'playbackSession',
      'loadCloudQueue',
      'fault',
      'trigger',
      'trigger',
      'expect',
    ]);
    // Sent while the refresh's request may still be in flight (then marked `overlapsPrevious`).
    expect(steps).toContainEqual(
      expect.objectContaining({ type: 'trigger', playerId: 'player-kitchen', request: 'pause', expectError: true }),
    );
    expect(JSON.stringify(bundle.scenario)).not.toContain(queue.accessToken);
    expect(steps).toContainEqual(
      expect.objectContaining({ body: expect.objectContaining({ httpAuthorization: 'Bearer ${queue1.token}' }) }),
    );
  });
});

describe('a call begun while a player’s request is in flight', () => {
  it('is marked so, with the requests answered since the call before, recorded or still pending', () => {
    const requests = {
      size: 0,
      issued: 7,
      endedSince: (mark: number) => (mark === 7 ? (requests.issued > 7 ? 2 : 0) : -1),
      crossings: () => [{ tickets: [4, 5] as const, at: [1_000, 1_000] as const }],
      begunCounts: () => ({ 'player-kitchen': 4 }),
    };
    const journal = new Journal({ now: () => 1_000, rules: () => [], requests });
    const first = journal.begin('players.act');
    requests.size = 1;
    requests.issued = 9;
    const second = journal.begin('players.act', { kind: 'command', name: 'players.act', input: {}, ok: true });
    const begun = { requestsBegun: { 'player-kitchen': 4 } };
    expect(first).toEqual({ seq: 1, at: 1_000, requestsIssued: 7, answeredAtInstant: 0, ...begun });
    // Counted from the first call at this instant.
    const marked = { requestsIssued: 9, answeredAtInstant: 2, whileRequestsInFlight: true, ...begun };
    expect(second).toEqual({ seq: 2, at: 1_000, ...marked });
    expect(journal.pendingEntries()).toEqual([expect.objectContaining({ seq: 2, ...marked, pendingAtExport: true })]);
    journal.recordCommand(second, { kind: 'command', name: 'players.act', input: {}, ok: true });
    expect(journal.entries()[0]).toMatchObject({ seq: 2, ...marked });
    expect(journal.requestCrossings()).toEqual([{ tickets: [4, 5], at: [1_000, 1_000] }]);
  });

  it('notes that the clock ran as the call began', () => {
    let speed = 0;
    const journal = new Journal({ now: () => 1_000, rules: () => [], clockRunning: () => speed > 0 });
    expect(journal.begin('players.act')).not.toHaveProperty('clockRan');
    speed = 20;
    expect(journal.begin('players.act')).toMatchObject({ clockRan: true });
  });
});
