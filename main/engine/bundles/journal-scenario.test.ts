/**
 * The scenario of a bundle, built from journaled calls: rules as they were when the span began,
 * each call a step with the engine time between them, and no expectation the replay cannot cause
 * (each dropped one named in the notes).
 */
import { describe, expect, it } from 'vitest';
import type { FaultRule } from '../api/fault-types.js';
import { UNKNOWN_TOKEN } from '../journal/secrets.js';
import type { JournalEntry } from '../journal/types.js';
import { scenarioFromJournal, type JournalScenarioInput, type RecordedTransition } from './journal-scenario.js';
import { journaledSessionOrigin } from './control-steps.js';
import { playerRequestMet } from './divergence.js';
import { unfilledVariables } from '../api/scenario-variables.js';
import { uncheckedScenario } from '../api/scenario-checks.js';
import { MAX_SCENARIO_STEPS } from '../api/scenario-types.js';

const T0 = 1_000_000;
const storm: FaultRule = {
  id: 'fault-a',
  target: 'cloudQueue',
  match: {},
  action: { type: 'status', status: 503 },
  times: 5,
  hits: 2,
  passes: 0,
  spent: false,
  createdAt: 0,
  label: 'storm',
};
const t = (
  playerId: string,
  at: number,
  transition: string,
  from = 'IDLE',
  cause = 'response',
  to = 'PLAYING',
): RecordedTransition => ({ playerId, at, transition, from, to, cause });

/** A journaled control call at engine second `seq` of the span, from client-1. */
const control = (seq: number, path: string, status = 200, body?: unknown, sessionId?: string): JournalEntry => ({
  kind: 'control',
  seq,
  at: T0 + 1_000 * seq,
  method: 'POST',
  path,
  ...(body === undefined ? {} : { body }),
  status,
  sender: 'client-1',
  ...(sessionId ? { sessionId } : {}),
});

function build(calls: JournalEntry[], transitions: RecordedTransition[], more: Partial<JournalScenarioInput> = {}) {
  return scenarioFromJournal({
    calls,
    from: T0,
    to: T0 + 10_000,
    queues: [{ ref: 'queue1', id: 'queue-x', itemIds: new Set(['item-1', 'item-2']) }],
    cloudQueueUrl: 'http://127.0.0.1:9',
    startRules: [storm],
    transitions,
    checkable: true,
    cuts: [],
    sessionOrigin: () => undefined,
    ...more,
  });
}

/** A journaled `players.act` at engine second `seq` of the span (or `more.at`), on `playerId`. */
const act = (
  seq: number,
  action: string,
  more: Partial<JournalEntry> = {},
  playerId = 'player-kitchen',
): JournalEntry =>
  ({
    kind: 'command',
    seq,
    at: T0 + 1_000 * seq,
    name: 'players.act',
    input: { id: playerId, action },
    ok: true,
    ...more,
  }) as JournalEntry;

describe('a scenario built from the journal', () => {
  it('starts from the rules as they were, with the hits they had used up, then every call at its engine time', () => {
    const calls: JournalEntry[] = [
      {
        kind: 'command',
        seq: 1,
        at: T0 + 1_000,
        name: 'players.trigger',
        input: { id: 'player-kitchen', request: 'refresh' },
        ok: true,
        result: { playerId: 'player-kitchen' },
      },
      {
        kind: 'command',
        seq: 2,
        at: T0 + 1_000,
        name: 'faults.remove',
        input: { id: 'fault-a' },
        ok: true,
        rules: [],
        removed: [storm],
      },
      { kind: 'command', seq: 3, at: T0 + 1_500, name: 'clock.set', input: { advanceMs: 60_000 }, ok: true },
    ];
    const { steps } = build(calls, [], { to: T0 + 61_500 });
    expect(steps).toEqual([
      { type: 'clearFaults' },
      { type: 'clock', speed: 0 },
      {
        type: 'fault',
        ref: 'rule1',
        rule: { target: 'cloudQueue', match: {}, action: { type: 'status', status: 503 }, times: 3, label: 'storm' },
      },
      { type: 'clock', advanceMs: 1_000 },
      { type: 'trigger', playerId: 'player-kitchen', request: 'refresh' },
      { type: 'faultRemove', rule: 'rule1' },
      { type: 'clock', advanceMs: 500 },
      { type: 'clock', advanceMs: 60_000 },
    ]);
  });

  it('drops the expectations from a call it cannot replay on, and says which and why', () => {
    const calls: JournalEntry[] = [
      {
        kind: 'control',
        seq: 1,
        at: T0 + 2_000,
        method: 'POST',
        path: '/api/v1/playbackSessions/s-1/playbackSession/loadCloudQueue',
        body: { queueBaseUrl: 'https://elsewhere.example.com/q/', httpAuthorization: UNKNOWN_TOKEN },
        status: 200,
        sender: 'client-1',
      },
      {
        kind: 'control',
        seq: 2,
        at: T0 + 2_050,
        method: 'POST',
        path: '/api/v1/playbackSessions/s-1/playbackSession/skipNext',
        status: 200,
        sender: 'client-1',
      },
      {
        kind: 'command',
        seq: 3,
        at: T0 + 2_060,
        name: 'players.act',
        input: { id: 'player-kitchen', action: 'skipNext' },
        ok: true,
      },
    ];
    const transitions = [
      t('player-kitchen', T0 + 500, 'load-begins', 'IDLE', 'command'),
      t('player-kitchen', T0 + 2_000, 'load-begins', 'PLAYING', 'command'),
      t('player-kitchen', T0 + 2_100, 'window-not-found', 'BUFFERING'),
    ];
    const { steps, notes } = build(calls, transitions);
    expect(steps.at(-1)).toEqual({ type: 'expect', playerId: 'player-kitchen', transitions: ['load-begins'] });
    // Neither the load nor the later skip of its session can answer as it did: their answers are
    // not expected (each made every such bundle fail its replay, audit).
    const commands = steps.filter((step) => step.type === 'command' && step.path.includes('playbackSession/'));
    expect(
      commands.map((step) => [step.type === 'command' && step.path.split('/').at(-1), 'expectStatus' in step]),
    ).toEqual([
      ['loadCloudQueue', false],
      ['skipNext', false],
    ]);
    // Nor the player's own button after it: which player the session moved, the journal does not say.
    expect(steps.find((step) => step.type === 'action')).toMatchObject({
      action: 'skipNext',
      outcomeNotChecked: expect.stringMatching(/^a player was loaded with a token of no queue/),
    });
    // Cut short: where it ended is not the replay's to reach.
    expect(notes).toContainEqual(
      expect.stringMatching(
        /^player-kitchen: the 2 transitions from .* on are not checked: POST \/api\/v1\/playbackSessions\/s-1\/playbackSession\/loadCloudQueue sent a token of no queue of this console/,
      ),
    );
  });

  it('(outside audit) leaves the other groups checked after a load with a token it does not carry, and a failed one checked', () => {
    const elsewhere = { queueBaseUrl: 'https://elsewhere.example.com/q/', httpAuthorization: UNKNOWN_TOKEN };
    const ownQueue = { queueBaseUrl: 'http://127.0.0.1:9/queues/queue-x/v2.3/', httpAuthorization: 'Bearer t' };
    const calls = [
      control(1, '/api/v1/groups/group-office/playbackSession:1', 200, { appId: 'a', appContext: 'c' }, 's-office'),
      control(
        2,
        '/api/v1/groups/group-living-room/playbackSession:1',
        200,
        { appId: 'a', appContext: 'c' },
        's-living',
      ),
      control(3, '/api/v1/playbackSessions/s-living/playbackSession:1/loadCloudQueue', 200, ownQueue),
      // A token of no queue on Office: one that failed (a wrong token on purpose), then one that went through.
      control(4, '/api/v1/playbackSessions/s-office/playbackSession:1/loadCloudQueue', 502, elsewhere),
      control(5, '/api/v1/playbackSessions/s-office/playbackSession:1/loadCloudQueue', 200, elsewhere),
      control(6, '/api/v1/playbackSessions/s-living/playbackSession:1/skipNext', 200),
      act(7, 'skipNext', {}, 'player-living-room'),
      act(8, 'pause', {}, 'player-office'),
    ];
    const transitions = [
      t('player-living-room', T0 + 3_000, 'load-begins', 'IDLE', 'command'),
      t('player-living-room', T0 + 6_000, 'skip-next', 'PLAYING', 'command'),
      t('player-office', T0 + 5_000, 'load-begins', 'IDLE', 'command'),
    ];
    const groupOf = (playerId: string) =>
      ({ 'player-office': 'group-office', 'player-living-room': 'group-living-room' })[playerId];
    const { steps, notes } = build(calls, transitions, { groupOf });
    const outcome = (ending: string) =>
      steps
        .filter((step) => step.type === 'command' && step.path.endsWith(ending))
        .map((step) => ('expectStatus' in step ? step.expectStatus : 'not checked'));
    expect(outcome('loadCloudQueue')).toEqual([200, 502, 'not checked']);
    expect(outcome('skipNext')).toEqual([200]);
    const actions = steps.filter((step) => step.type === 'action');
    expect(actions.map((step) => [step.playerId, 'outcomeNotChecked' in step])).toEqual([
      ['player-living-room', false],
      ['player-office', true],
    ]);
    expect(steps.filter((step) => step.type === 'expect')).toEqual([
      expect.objectContaining({ playerId: 'player-living-room', transitions: ['load-begins', 'skip-next'] }),
    ]);
    expect(notes).toContainEqual(
      expect.stringMatching(/^player-office: the 1 transitions? from .* on are not checked/),
    );
    expect(notes).not.toContainEqual(expect.stringMatching(/^player-living-room: .* not checked/));
  });

  it('checks nothing, and so is refused, when its only check left would be a session made to carry the calls (audit)', () => {
    const ownServer = { queueBaseUrl: 'http://127.0.0.1:48901/queues/mine/v2.3/', httpAuthorization: UNKNOWN_TOKEN };
    const calls = [
      control(1, '/api/v1/groups/group-kitchen/playbackSession:1', 200, { appId: 'a', appContext: 'c' }, 's-1'),
      control(2, '/api/v1/playbackSessions/s-1/playbackSession:1/loadCloudQueue', 200, ownServer),
    ];
    const transitions = [t('player-kitchen', T0 + 2_000, 'load-begins', 'IDLE', 'command')];
    const { steps, notes } = build(calls, transitions);
    expect(steps.filter((step) => step.type === 'expect')).toEqual([]);
    expect(steps.find((step) => step.type === 'command')).toMatchObject({
      path: '/api/v1/groups/group-kitchen/playbackSession:1',
      outcomeNotChecked: 'made to carry the calls after it, none of whose outcomes the bundle checks',
    });
    expect(uncheckedScenario(steps)).toMatchObject({ kind: 'checksNothing' });
    expect(notes).toContainEqual(expect.stringMatching(/sent a token of no queue of this console/));
    // A session made for a call that is checked stays checked.
    const kept = build([calls[0]!, control(2, '/api/v1/playbackSessions/s-1/playbackSession:1/skipToItem', 409)], []);
    expect(kept.steps.find((step) => step.type === 'command')).toMatchObject({ expectStatus: 200 });
    expect(uncheckedScenario(kept.steps)).toBeUndefined();
  });

  it('checks no outcome after a command it cannot replay: an imported bundle’s rules decided them (audit)', () => {
    const load = '/api/v1/playbackSessions/s-1/playbackSession:1/loadCloudQueue';
    const queue = {
      queueBaseUrl: 'http://127.0.0.1:9/queues/queue-x/v2.3/',
      httpAuthorization: 'Bearer ${token:queue-x}',
    };
    const { steps, notes } = build(
      [
        control(1, load, 200, queue),
        {
          kind: 'command',
          seq: 2,
          at: T0 + 2_000,
          name: 'bundles.import',
          input: null,
          omitted: 'a whole bundle',
          ok: true,
        },
        // Answered 502 by the storm the import added: the replay has no such rule.
        control(3, load, 502, queue),
      ],
      [],
      { sessionOrigin: () => ({ groupId: 'group-kitchen', appId: 'a', appContext: 'c' }) },
    );
    const loads = steps.filter((step) => step.type === 'command' && step.path === load.replace('s-1', '${session1}'));
    expect(
      loads.map((step) => (step.type === 'command' ? (step.expectStatus ?? step.outcomeNotChecked) : null)),
    ).toEqual([200, expect.stringMatching(/^bundles\.import \(a whole bundle\) is not kept/)]);
    expect(notes).toContainEqual(
      expect.stringMatching(/^the outcomes of the 1 calls and actions from .* on are not checked: bundles\.import/),
    );
  });

  it('makes a load of a queue the bundle does not carry on its own server, with no token, checking nothing of it (audit)', () => {
    const load = '/api/v1/playbackSessions/s-1/playbackSession:1/loadCloudQueue';
    const { steps, notes } = build(
      [
        control(1, load, 200, {
          queueBaseUrl: 'http://127.0.0.1:9/queues/queue-y/v2.3/',
          httpAuthorization: 'Bearer ${token:queue-y}',
        }),
      ],
      [t('player-kitchen', T0 + 1_000, 'load-begins', 'IDLE', 'command')],
      { sessionOrigin: () => ({ groupId: 'group-kitchen', appId: 'a', appContext: 'c' }) },
    );
    const made = steps.find((step) => step.type === 'command' && step.path.endsWith('/loadCloudQueue'));
    expect(made).toMatchObject({
      body: { queueBaseUrl: '${cloudQueue}/queues/queue-y/v2.3/', httpAuthorization: UNKNOWN_TOKEN },
      outcomeNotChecked: expect.stringMatching(/token of no queue/),
    });
    expect(made).not.toHaveProperty('expectStatus');
    expect(unfilledVariables(steps)).toEqual([]);
    expect(notes).toContainEqual(expect.stringMatching(/^queue queue-y is not in the bundle/));
  });

  it('checks again once a load it can make went through, and keeps a load that failed in the source checked', () => {
    const load = '/api/v1/playbackSessions/s-1/playbackSession:1/loadCloudQueue';
    const elsewhere = { queueBaseUrl: 'https://elsewhere.example.com/q/', httpAuthorization: UNKNOWN_TOKEN };
    const { steps } = build(
      [
        // Tried with a wrong token on purpose: refused in the source, refused in the replay.
        control(1, load, 502, elsewhere),
        control(2, load, 200, elsewhere),
        // The group's call, not the session's: it meets nothing loaded too.
        control(3, '/api/v1/groups/group-kitchen/playback:1/skipToNextTrack', 200),
        control(4, load, 200, {
          queueBaseUrl: 'http://127.0.0.1:9/queues/queue-x/v2.3/',
          httpAuthorization: 'Bearer ${token:queue-x}',
        }),
        control(5, '/api/v1/groups/group-kitchen/playback:1/skipToNextTrack', 200),
      ],
      [],
      { sessionOrigin: () => ({ groupId: 'group-kitchen', appId: 'com.example', appContext: 'c' }) },
    );
    const commands = steps.flatMap((step) =>
      step.type === 'command' ? [[step.path.split('/').at(-1), step.expectStatus ?? step.outcomeNotChecked]] : [],
    );
    expect(commands).toEqual([
      // The session, created before the span, is made first.
      ['playbackSession:1', undefined],
      ['loadCloudQueue', 502],
      ['loadCloudQueue', expect.stringMatching(/^a player was loaded with a token of no queue/)],
      ['skipToNextTrack', expect.stringMatching(/^a player was loaded with a token of no queue/)],
      ['loadCloudQueue', 200],
      ['skipToNextTrack', 200],
    ]);
  });

  it('calls a session gone from the console and its journal by its id, checking only what was refused', () => {
    const skip = (seq: number, sessionId: string, status: number): JournalEntry => ({
      kind: 'control',
      seq,
      at: T0 + 1_000 * seq,
      method: 'POST',
      path: `/api/v1/playbackSessions/${sessionId}/playbackSession:1/skipToItem`,
      body: { itemId: 'item-2' },
      status,
      sender: 'client-1',
    });
    const { steps, notes } = build([skip(1, 's-gone', 200), skip(2, 's-never', 404)], []);
    const commands = steps.flatMap((step) => (step.type === 'command' ? [step] : []));
    expect(commands.map((step) => [step.path, step.expectStatus ?? step.outcomeNotChecked])).toEqual([
      [
        '/api/v1/playbackSessions/s-gone/playbackSession:1/skipToItem',
        expect.stringMatching(/^its session was created before the span and is gone/),
      ],
      ['/api/v1/playbackSessions/s-never/playbackSession:1/skipToItem', 404],
    ]);
    // Every variable is one a step before saves: `run` takes the bundle (it refused it, exit 2).
    const given = new Set(['queue1.url', 'queue1.token', 'queue1.id', 'queue1.item-2']);
    expect(unfilledVariables(steps, (name) => given.has(name))).toEqual([]);
    expect(notes).toContainEqual(
      expect.stringMatching(/^session s-gone was created before the exported span, and neither/),
    );
  });

  it('finds a session\u2019s group and app in the journaled call that created it', () => {
    const created: JournalEntry = {
      kind: 'control',
      seq: 1,
      at: T0,
      method: 'POST',
      path: '/control/api/v1/groups/group-office/playbackSession:1/joinOrCreate',
      body: { appId: 'com.example', appContext: 'ctx' },
      status: 200,
      sender: 'client-1',
      sessionId: 's-7',
    };
    expect(journaledSessionOrigin([created], 's-7')).toEqual({
      groupId: 'group-office',
      appId: 'com.example',
      appContext: 'ctx',
    });
    expect(journaledSessionOrigin([created], 's-8')).toBeUndefined();
  });

  it('checks no call, action or trigger of a player busy when the scenario began until a load of its goes through', () => {
    const session = '/api/v1/playbackSessions/s-1/playbackSession:1';
    const { steps } = build(
      [
        control(1, `${session}/skipToItem`, 200, { itemId: 'item-2' }),
        control(2, '/api/v1/groups/group-kitchen/playback:1/pause'),
        control(3, '/api/v1/groups/group-kitchen/groupVolume:1', 200, { volume: 20 }),
        act(4, 'play'),
        act(5, 'pause', {}, 'player-office'),
        control(6, '/api/v1/groups/group-office/playback:1/pause', 409),
        control(7, `${session}/loadCloudQueue`, 200, {
          queueBaseUrl: 'http://127.0.0.1:9/queues/queue-x/v2.3/',
          httpAuthorization: 'Bearer ${token:queue-x}',
        }),
        control(8, '/api/v1/groups/group-kitchen/playback:1/pause'),
        act(9, 'play'),
      ],
      // Playing before the span; the office player idle.
      [t('player-kitchen', T0 - 5_000, 'load-begins', 'IDLE', 'command', 'PLAYING')],
      {
        sessionOrigin: () => ({ groupId: 'group-kitchen', appId: 'com.example', appContext: 'c' }),
        groupOf: (playerId) => `group-${playerId.slice('player-'.length)}`,
      },
    );
    const busy = expect.stringMatching(/^player-kitchen was PLAYING when the scenario began, loaded before it/);
    const checked = steps.flatMap((step) =>
      step.type === 'command'
        ? [[step.path.split('/').at(-1), step.expectStatus ?? step.outcomeNotChecked ?? 'saves']]
        : step.type === 'action'
          ? [[`${step.playerId} ${step.action}`, step.outcomeNotChecked ?? 'checked']]
          : [],
    );
    expect(checked).toEqual([
      ['playbackSession:1', 'saves'],
      ['skipToItem', busy],
      ['pause', busy],
      ['groupVolume:1', 200],
      ['player-kitchen play', busy],
      ['player-office pause', 'checked'],
      ['pause', 409],
      ['loadCloudQueue', 200],
      ['pause', 200],
      ['player-kitchen play', 'checked'],
    ]);
  });

  it('checks nothing after a rule answered a busy player\u2019s request the replay does not make', () => {
    const queue = {
      queueBaseUrl: 'http://127.0.0.1:9/queues/queue-x/v2.3/',
      httpAuthorization: 'Bearer ${token:queue-x}',
    };
    const calls = [
      control(1, '/api/v1/groups/group-office/playbackSession:1', 200, { appId: 'a', appContext: 'c' }, 's-2'),
      control(3, '/api/v1/playbackSessions/s-2/playbackSession:1/loadCloudQueue', 200, queue),
      control(4, '/api/v1/groups/group-office/playback:1/pause'),
      control(5, '/api/v1/playbackSessions/s-1/playbackSession:1/loadCloudQueue', 200, queue),
    ];
    const transitions = [t('player-kitchen', T0 - 5_000, 'load-begins', 'IDLE', 'command', 'PLAYING')];
    const more: Partial<JournalScenarioInput> = {
      sessionOrigin: () => ({ groupId: 'group-kitchen', appId: 'a', appContext: 'c' }),
      groupOf: (playerId) => `group-${playerId.slice('player-'.length)}`,
    };
    const checks = (hitAt: number, extra: Partial<JournalScenarioInput> = {}) => {
      const { steps, notes } = build(calls, transitions, {
        ...more,
        ...extra,
        playerRequests: [
          { at: T0 + 500, playerId: 'player-kitchen', ruleId: null },
          { at: hitAt, playerId: 'player-kitchen', ruleId: storm.id },
        ],
      });
      return {
        notes,
        commands: steps.flatMap((step) =>
          step.type === 'command'
            ? [[step.path.split('/').at(-1), step.expectStatus ?? step.outcomeNotChecked ?? 'saves']]
            : [],
        ),
      };
    };
    // Hit while still busy with the load from before the scenario: from then on nothing is checked.
    const cut = expect.stringMatching(
      /^rule rule1 answered a request of player-kitchen, busy since before the scenario began/,
    );
    const early = checks(T0 + 2_000);
    // The sessions were made only to carry calls none of whose outcomes is checked: their answers
    // alone would have made a PASS of a bundle that checks nothing (audit).
    const carried = 'made to carry the calls after it, none of whose outcomes the bundle checks';
    expect(early.commands).toEqual([
      ['playbackSession:1', carried],
      ['loadCloudQueue', cut],
      ['pause', cut],
      ['playbackSession:1', carried],
      ['loadCloudQueue', cut],
    ]);
    expect(early.notes).toContainEqual(
      expect.stringMatching(/^the outcomes of the 3 calls and actions from .* on are not checked: rule rule1/),
    );
    // A rule without a count of answers stands the same whoever it answered: nothing is cut.
    expect(checks(T0 + 2_000, { startRules: [{ ...storm, times: undefined }] }).commands).toEqual([
      ['playbackSession:1', 200],
      ['loadCloudQueue', 200],
      ['pause', 200],
      ['playbackSession:1', 'saves'],
      ['loadCloudQueue', 200],
    ]);
    // A rule of chance draws for every request it stands for, answered or not: from the first.
    const chance = { ...storm, hits: 0, passes: 0, probability: 0.5, seed: 3 };
    const drew = checks(T0 + 6_000, { startRules: [chance] });
    expect(drew.notes).toContainEqual(
      expect.stringMatching(
        /^the outcomes of the 3 calls .* a request of player-kitchen, .* drew from a rule of chance$/,
      ),
    );
    // One that drew before the span draws afresh in the replay: nothing of the span is checked, not
    // even the sessions made (the calls after them name them, and are not checked).
    const before = checks(T0 + 6_000, { startRules: [{ ...chance, passes: 2 }] });
    expect(before.commands.filter(([, check]) => typeof check === 'number')).toEqual([]);
    expect(before.commands.filter(([, check]) => check === carried)).toHaveLength(2);
    expect(before.notes).toContainEqual(
      expect.stringMatching(/^the outcomes of the 3 calls .* rule storm drew 2 times before the span/),
    );
    // Hit after its own load went through: the replay makes that request too.
    expect(checks(T0 + 6_000).commands).toEqual([
      ['playbackSession:1', 200],
      ['loadCloudQueue', 200],
      ['pause', 200],
      ['playbackSession:1', 'saves'],
      ['loadCloudQueue', 200],
    ]);
  });

  it('drops them for a command no step can make, and for a player busy before the span', () => {
    const calls: JournalEntry[] = [
      { kind: 'command', seq: 1, at: T0 + 3_000, name: 'queues.token.issue', input: { id: 'queue-x' }, ok: true },
    ];
    const transitions = [
      t('player-kitchen', T0 + 4_000, 'window-unauthorized', 'PLAYING'),
      t('player-office', T0 + 100, 'load-begins', 'IDLE', 'command'),
      t('player-office', T0 + 3_500, 'play', 'PAUSED', 'user'),
    ];
    const { steps, notes } = build(calls, transitions);
    expect(steps.filter((s) => s.type === 'expect')).toEqual([
      { type: 'expect', playerId: 'player-office', transitions: ['load-begins'] },
    ]);
    expect(notes).toContainEqual(expect.stringContaining('player-kitchen was PLAYING when the span began'));
    expect(notes).toContainEqual(expect.stringContaining('queues.token.issue cannot be replayed by a scenario'));
  });

  it('says so of a player whose end a cut leaves unchecked, though it did nothing after it (audit X19)', () => {
    const calls: JournalEntry[] = [
      { kind: 'command', seq: 1, at: T0 + 3_000, name: 'queues.token.issue', input: { id: 'queue-x' }, ok: true },
    ];
    const transitions = [
      t('player-living-room', T0 + 100, 'load-begins', 'IDLE', 'command', 'BUFFERING'),
      t('player-living-room', T0 + 200, 'load-answered-plays', 'BUFFERING', 'response', 'PLAYING'),
    ];
    const { steps, notes } = build(calls, transitions, { itemNow: () => 'item-1' });
    expect(steps.filter((s) => s.type === 'expect')).toEqual([
      { type: 'expect', playerId: 'player-living-room', transitions: ['load-begins', 'load-answered-plays'] },
    ]);
    expect(notes).toContainEqual(
      expect.stringMatching(
        /^player-living-room: where it ended \(its state and item\) is not checked, only its transitions before .*: queues\.token\.issue cannot be replayed by a scenario$/,
      ),
    );
  });

  it('checks where a player ended: its last state, and its item when nothing happened to it since', () => {
    const transitions = [
      t('player-kitchen', T0 + 100, 'load-begins', 'IDLE', 'command', 'BUFFERING'),
      t('player-kitchen', T0 + 200, 'load-answered-plays', 'BUFFERING', 'response', 'PLAYING'),
      t('player-kitchen', T0 + 300, 'pause', 'PLAYING', 'user', 'PAUSED'),
    ];
    const itemNow = (playerId: string) => (playerId === 'player-kitchen' ? 'item-2' : null);
    expect(build([], transitions, { itemNow }).steps.at(-1)).toEqual({
      type: 'expect',
      playerId: 'player-kitchen',
      transitions: ['load-begins', 'load-answered-plays', 'pause'],
      state: 'PAUSED',
      itemId: '${queue1.item-2}',
    });
    // It moved after the span: its item now is not the span's, and is not asked for.
    const later = [...transitions, t('player-kitchen', T0 + 20_000, 'play', 'PAUSED', 'user', 'PLAYING')];
    expect(build([], later, { itemNow }).steps.at(-1)).toEqual({
      type: 'expect',
      playerId: 'player-kitchen',
      transitions: ['load-begins', 'load-answered-plays', 'pause'],
      state: 'PAUSED',
    });
  });

  it('checks nothing for a filtered export, and a probability rule that drew before the span cuts from its start', () => {
    expect(
      build([], [t('player-kitchen', T0 + 1, 'load-begins', 'IDLE', 'command')], { checkable: false }).steps.some(
        (s) => s.type === 'expect',
      ),
    ).toBe(false);
    const drew = { ...storm, times: undefined, probability: 0.5, seed: 7, hits: 1, passes: 1 };
    const { steps, notes } = build([], [t('player-kitchen', T0 + 1, 'load-begins', 'IDLE', 'command')], {
      startRules: [drew],
    });
    expect(steps.some((s) => s.type === 'expect')).toBe(false);
    expect(notes).toContainEqual(expect.stringContaining('drew 2 times before the span'));
  });

  it('says a clock speed change is replayed as the time it let pass, and says nothing of a jump alone (outside audit)', () => {
    const clock = (seq: number, input: Record<string, unknown>): JournalEntry =>
      ({ kind: 'command', seq, at: T0 + 1_000 * seq, name: 'clock.set', input, ok: true }) as JournalEntry;
    const said = (calls: JournalEntry[]) =>
      build(calls, []).notes.some((note) => note.startsWith('clock speed changes'));
    expect(said([clock(1, { advanceMs: 60_000 }), clock(2, { advanceMs: 5_000 })])).toBe(false);
    expect(said([clock(1, { advanceMs: 60_000 }), clock(2, { speed: 10 })])).toBe(true);
  });

  it('keeps the first steps of a span past a scenario\u2019s size, where a replay must begin, and says how to narrow it', () => {
    const calls = Array.from({ length: MAX_SCENARIO_STEPS }, (_, i) => act(i + 1, i % 2 ? 'pause' : 'resume'));
    const loaded = [t('player-kitchen', T0 + 100, 'load-begins', 'IDLE', 'command', 'BUFFERING')];
    const { steps, notes } = build(calls, loaded, { to: T0 + 1_000 * (MAX_SCENARIO_STEPS + 1) });
    expect(steps).toHaveLength(MAX_SCENARIO_STEPS);
    // The first call of the span is kept; no expectation is left.
    expect(steps.find((s) => s.type === 'action')).toMatchObject({ action: 'resume' });
    expect(steps.some((s) => s.type === 'expect')).toBe(false);
    expect(notes).toContainEqual(
      expect.stringMatching(
        /^the span makes \d+ steps; a scenario holds 1000: .* \(export a narrower span: a lower `limit` begins it later/,
      ),
    );
  });
});

describe("an expectation's requests", () => {
  const request = (at: number, path: string, status: number | null, retry = 0, playerId = 'player-kitchen') => ({
    playerId,
    at,
    path: `/queues/q/v2.3/${path}`,
    reason: path === 'itemWindow' ? 'skipNext' : null,
    status,
    retry,
  });
  const expectOf = (built: ReturnType<typeof build>) =>
    built.steps.find((s) => s.type === 'expect') as { requests?: string[] } | undefined;
  const loaded = [t('player-kitchen', T0 + 100, 'load-begins', 'IDLE', 'command', 'BUFFERING')];

  it('lists those that failed or were retries, in order, and leaves first tries answered 2xx out', () => {
    const built = build([], loaded, {
      requests: [
        request(T0 + 100, 'context', 200),
        request(T0 + 200, 'itemWindow', 503),
        request(T0 + 300, 'itemWindow', 200, 1),
        request(T0 + 400, 'version', null),
        request(T0 + 500, 'timePlayed', 204),
      ],
    });
    expect(expectOf(built)?.requests).toEqual([
      'itemWindow skipNext → 503',
      'itemWindow skipNext → 200 (retry 1)',
      'version → no answer',
    ]);
  });

  it('checks none when the log no longer holds the player’s first request of the span, and says so', () => {
    const built = build([], loaded, { requests: [request(T0 + 200, 'itemWindow', 503)] });
    expect(expectOf(built)?.requests).toBeUndefined();
    expect(built.notes).toContainEqual(expect.stringContaining('no longer holds its first requests of the span'));
  });

  it('checks none when the log holds none of a player an answer moved (the log cleared), and says so (outsider F7)', () => {
    const answered = [...loaded, t('player-kitchen', T0 + 300, 'load-answered-plays', 'BUFFERING', 'response')];
    const cleared = build([], answered, { requests: [] });
    expect(expectOf(cleared)?.requests).toBeUndefined();
    expect(cleared.notes).toContainEqual(
      'player-kitchen: the traffic log holds none of its requests of the span (cleared, or capture off): which of them failed or were retried is not checked',
    );
    // No answer moved it (its load is still waiting): no request of its was due in the log.
    expect(build([], loaded, { requests: [] }).notes).not.toContainEqual(expect.stringContaining('holds none'));
  });

  it('lists the first 200 of a storm’s thousands, and says so', () => {
    const storm503 = Array.from({ length: 250 }, (_, i) => request(T0 + 200 + i, 'timePlayed', 503, i % 4));
    const built = build([], loaded, { requests: [request(T0 + 100, 'context', 200), ...storm503] });
    expect(expectOf(built)?.requests).toHaveLength(200);
    expect(built.notes).toContainEqual(expect.stringContaining('the first 200 of its 250 requests'));
  });
});

describe('calls made while a player’s request was in flight', () => {
  it('marks one right after another call at its instant, with the answers that came between them', () => {
    const { steps } = build(
      [
        act(1, 'skipNext', { at: T0 + 1_000, requestsIssued: 10, answeredAtInstant: 1 }),
        act(2, 'skipPrev', {
          at: T0 + 1_000,
          requestsIssued: 11,
          answeredAtInstant: 1,
          whileRequestsInFlight: true,
          ok: false,
        }),
        act(3, 'pause', { at: T0 + 1_000, requestsIssued: 13, answeredAtInstant: 3, whileRequestsInFlight: true }),
      ],
      [],
    );
    expect(steps.filter((step) => step.type === 'action')).toEqual([
      { type: 'action', playerId: 'player-kitchen', action: 'skipNext' },
      { type: 'action', playerId: 'player-kitchen', action: 'skipPrev', expectError: true, overlapsPrevious: true },
      { type: 'action', playerId: 'player-kitchen', action: 'pause', overlapsPrevious: true, afterAnswers: 2 },
    ]);
  });

  it('checks nothing from calls made at once whose own requests’ answers crossed, which no replay repeats', () => {
    const atOnce = [
      act(1, 'skipNext', { at: T0 + 1_000, requestsIssued: 10 }),
      act(2, 'pause', { at: T0 + 1_000, requestsIssued: 11, whileRequestsInFlight: true }),
    ];
    const later = act(3, 'play', { at: T0 + 3_000, requestsIssued: 14 });
    const crossedNote = (notes: readonly string[]) => notes.filter((note) => /another order/.test(note));
    const at = T0 + 1_000;
    const crossing = (tickets: [number, number], times: [number, number]) => ({ tickets, at: times });
    // None crossed; two requests from before the run; two begun later, after a clock step: all kept.
    for (const crossings of [[], [crossing([8, 9], [at, at])], [crossing([14, 15], [T0 + 3_000, T0 + 3_000])]])
      expect(crossedNote(build([...atOnce, later], [t('player-kitchen', at, 'pause')], { crossings }).notes)).toEqual(
        [],
      );
    // The run's own requests, or one of them overtaking a request begun at its instant before it.
    for (const crossings of [[crossing([12, 13], [at, at])], [crossing([9, 12], [at, at])]]) {
      const { steps, notes } = build([...atOnce, later], [t('player-kitchen', at, 'pause')], { crossings });
      expect(crossedNote(notes)).toContainEqual(
        expect.stringMatching(/calls made at once at .* had a player's answers come in another order/),
      );
      const actions = steps.filter((step) => step.type === 'action');
      expect(actions.slice(0, 2).every((step) => 'outcomeNotChecked' in step)).toBe(true);
    }
  });

  it('leaves one after a clock step unmarked: the replay settles what came before it', () => {
    const { steps } = build(
      [
        act(1, 'skipNext', { at: T0 + 1_000, requestsIssued: 3 }),
        act(2, 'pause', { at: T0 + 2_000, requestsIssued: 4, answeredAtInstant: 0, whileRequestsInFlight: true }),
      ],
      [],
    );
    const pause = steps.findIndex((step) => step.type === 'action' && step.action === 'pause');
    expect(steps.slice(pause - 1, pause + 1)).toEqual([
      { type: 'clock', advanceMs: 1_000 },
      { type: 'action', playerId: 'player-kitchen', action: 'pause' },
    ]);
  });
});

describe('calls made while the clock ran', () => {
  it('say on their first step what each player idle at the start had asked since the first call', () => {
    const { steps } = build(
      [
        act(1, 'play', { requestsBegun: { 'player-kitchen': 10, 'player-office': 4 } }),
        act(2, 'pause', { requestsBegun: { 'player-kitchen': 13, 'player-office': 4 }, clockRan: true }),
        act(3, 'play', { requestsBegun: { 'player-kitchen': 15, 'player-office': 4 } }),
      ],
      // Office was playing when the span began: the replay makes none of its requests.
      [t('player-office', T0 - 5_000, 'load-answered-plays')],
      { groupOf: (playerId) => playerId.replace('player-', 'group-') },
    );
    const actions = steps.filter((step) => step.type === 'action');
    expect(actions[1]).toMatchObject({ action: 'pause', requestsBefore: { 'player-kitchen': 3 } });
    expect(actions[1]!.requestsBefore).not.toHaveProperty('player-office');
    // At a stopped clock the replay is exact: nothing to compare.
    expect(actions[0]).not.toHaveProperty('requestsBefore');
    expect(actions[2]).not.toHaveProperty('requestsBefore');
  });
});

describe('a fault rule added while the clock ran', () => {
  const added: FaultRule = { ...storm, id: 'fault-b', times: undefined, hits: 0, label: 'storm 2' };
  const addRule = (more: Partial<JournalEntry> = {}): JournalEntry =>
    ({
      kind: 'command',
      seq: 1,
      at: T0 + 2_000,
      name: 'faults.add',
      input: {},
      ok: true,
      rules: [added],
      result: { ruleId: added.id },
      clockRan: true,
      ...more,
    }) as JournalEntry;
  const kitchen = [
    t('player-kitchen', T0 + 100, 'load-begins', 'IDLE', 'command', 'BUFFERING'),
    t('player-kitchen', T0 + 200, 'load-answered-plays', 'BUFFERING', 'response'),
    t('player-kitchen', T0 + 2_500, 'pause', 'PLAYING', 'command', 'PAUSED'),
  ];
  const report = (at: number, ruleId: string | null) => ({
    at,
    playerId: 'player-kitchen',
    ruleId,
    target: 'player' as const,
  });
  const expectOf = (built: ReturnType<typeof build>) => built.steps.find((s) => s.type === 'expect');

  it('stops checking a player whose request, begun before it, the rule answered: replayed, it goes out before the rule', () => {
    // A report begun just before a 503 storm was added met the storm (audit x1, realtime).
    const built = build([addRule()], kitchen, { playerRequests: [report(T0 + 1_950, added.id)] });
    expect(expectOf(built)).toEqual({
      type: 'expect',
      playerId: 'player-kitchen',
      transitions: ['load-begins', 'load-answered-plays'],
    });
    expect(built.notes).toContainEqual(
      expect.stringMatching(/begun before rule rule2 was added, with the clock running/),
    );
  });

  it("leaves that player's later actions unjudged, and another player's judged", () => {
    const refused = { at: T0 + 2_500, ok: false };
    const built = build([addRule(), act(2, 'pause', refused), act(3, 'pause', refused, 'player-office')], kitchen, {
      playerRequests: [report(T0 + 1_950, added.id)],
    });
    const actions = built.steps.filter((s) => s.type === 'action');
    expect(actions[0]).toMatchObject({
      playerId: 'player-kitchen',
      outcomeNotChecked: expect.stringMatching(/begun before rule rule2 was added/),
    });
    expect(actions[0]).not.toHaveProperty('expectError');
    expect(actions[1]).toMatchObject({ playerId: 'player-office', expectError: true });
    expect(actions[1]).not.toHaveProperty('outcomeNotChecked');
  });

  it("leaves the control calls on that player's group unjudged, and another group's judged", () => {
    const session = (seq: number, group: string, id: string) =>
      control(seq, `/api/v1/groups/${group}/playbackSession:1`, 200, { appId: 'a', appContext: 'c' }, id);
    const pause = (seq: number, id: string) =>
      control(seq, `/api/v1/playbackSessions/${id}/playbackSession:1/pause`, 409, undefined, id);
    const built = build(
      [
        session(1, 'group-kitchen', 's-k'),
        session(1, 'group-office', 's-o'),
        addRule(),
        pause(3, 's-k'),
        pause(3, 's-o'),
        control(4, '/api/v1/groups/group-kitchen/playbackSession:1/play', 409),
      ],
      kitchen,
      {
        playerRequests: [report(T0 + 1_950, added.id)],
        groupOf: (playerId) => playerId.replace('player-', 'group-'),
      },
    );
    const commands = built.steps.filter((s) => s.type === 'command');
    // Making a session is the group's whatever its player does: still judged.
    expect(commands.slice(0, 2).map((c) => c.expectStatus)).toEqual([200, 200]);
    expect(commands[2]).toMatchObject({
      path: '/api/v1/playbackSessions/${session1}/playbackSession:1/pause',
      outcomeNotChecked: expect.stringMatching(/begun before rule rule2 was added/),
    });
    expect(commands[2]).not.toHaveProperty('expectStatus');
    expect(commands[3]).toMatchObject({ path: expect.stringContaining('${session2}'), expectStatus: 409 });
    expect(commands[4]).toMatchObject({ outcomeNotChecked: expect.stringMatching(/begun before rule rule2/) });
  });

  it('leaves unjudged the call that waited for the window the rule met, begun before the rule', () => {
    // A load waits for its first window; the window met a storm added meanwhile, and the load
    // failed 502. The replay awaits the load before it adds the rule: 200 (review R4).
    const queue = {
      queueBaseUrl: 'http://127.0.0.1:9/queues/queue-x/v2.3/',
      httpAuthorization: 'Bearer ${token:queue-x}',
    };
    const loadPath = '/api/v1/playbackSessions/s-k/playbackSession:1/loadCloudQueue';
    const calls = [
      control(1, '/api/v1/groups/group-kitchen/playbackSession:1', 200, { appId: 'a', appContext: 'c' }, 's-k'),
      { ...control(1, loadPath, 502, queue, 's-k'), at: T0 + 1_500 },
      addRule(),
    ];
    const more = { groupOf: (playerId: string) => playerId.replace('player-', 'group-') };
    const loadOf = (built: ReturnType<typeof build>) =>
      built.steps.find((s) => s.type === 'command' && s.path.endsWith('/loadCloudQueue'));
    const window = { ...report(T0 + 1_550, added.id), waitedOn: true as const };
    expect(loadOf(build(calls, kitchen, { ...more, playerRequests: [window] }))).toMatchObject({
      outcomeNotChecked: expect.stringMatching(/begun before rule rule2 was added/),
    });
    // A report met the rule: no call waited for it, and the load's 502 is judged as before.
    expect(loadOf(build(calls, kitchen, { ...more, playerRequests: [report(T0 + 1_550, added.id)] }))).toMatchObject({
      expectStatus: 502,
    });
  });

  it('checks on for a request begun after the rule came, one no rule answered, or a clock that stood still', () => {
    const cases = [
      build([addRule()], kitchen, { playerRequests: [report(T0 + 2_050, added.id)] }),
      build([addRule()], kitchen, { playerRequests: [report(T0 + 1_950, null)] }),
      build([addRule({ clockRan: undefined })], kitchen, { playerRequests: [report(T0 + 1_950, added.id)] }),
    ];
    for (const built of cases)
      expect(expectOf(built)).toMatchObject({ transitions: ['load-begins', 'load-answered-plays', 'pause'] });
  });
});

describe('a player request as the builder reads it', () => {
  it('says a window a call waits for: a load, a skip, a pause, a play, a resume; no other', () => {
    const entry = (path: string, reason: string | null) =>
      playerRequestMet({ at: T0, playerId: 'player-kitchen', fault: null, path, reason });
    for (const reason of ['load', 'load+queueCompleted', 'skipNext', 'skipPrev', 'pause', 'play', 'resume'])
      expect(entry('/queues/q/v2.3/itemWindow', reason), reason).toMatchObject({ waitedOn: true });
    for (const [path, reason] of [
      ['/queues/q/v2.3/itemWindow', 'refresh'],
      ['/queues/q/v2.3/itemWindow', 'skipToItem'],
      ['/queues/q/v2.3/timePlayed', null],
      ['/queues/q/v2.3/version', null],
    ] as const)
      expect(entry(path, reason), `${path} ${reason}`).not.toHaveProperty('waitedOn');
    expect(playerRequestMet({ at: T0, playerId: null, fault: null, path: '/x/itemWindow', reason: 'load' })).toBeNull();
  });
});

describe('a call made while a request was in flight and the clock ran', () => {
  it('is made after the one before settled, its outcome not checked: with the clock running no two share an instant', () => {
    const { steps } = build(
      [
        act(1, 'skipNext', { at: T0 + 1_000, clockRan: true, requestsIssued: 3 }),
        act(2, 'skipNext', {
          at: T0 + 1_003,
          ok: false,
          clockRan: true,
          requestsIssued: 4,
          whileRequestsInFlight: true,
        }),
      ],
      [],
    );
    const skips = steps.filter((step) => step.type === 'action');
    expect(skips[0]).not.toHaveProperty('outcomeNotChecked');
    expect(skips[1]).toMatchObject({ outcomeNotChecked: expect.stringMatching(/in flight and the clock ran/) });
    expect(skips[1]).not.toHaveProperty('overlapsPrevious');
  });
});
