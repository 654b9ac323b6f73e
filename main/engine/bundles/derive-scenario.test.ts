/** Deriving a scenario from traffic: order, gaps, variables, and what is left out with a note. */
import { describe, expect, it } from 'vitest';
import type { FaultRule } from '../api/fault-types.js';
import type { StoredTrafficEntry } from '../traffic/log/index.js';
import { trafficEntry } from '../testing/traffic.js';
import { checkBundle } from './import.js';
import { deriveScenario, queueIdsUsed, type DeriveInput } from './derive-scenario.js';

const CQ = 'http://127.0.0.1:9003';
let nextId = 1;

function entry(target: StoredTrafficEntry['target'], at: number, path: string, fields: Partial<StoredTrafficEntry> = {}): StoredTrafficEntry {
  return { id: nextId++, ...trafficEntry({ target, at, wallAt: at, method: 'POST', url: `http://127.0.0.1:9002${path}`, path }), requestHeaders: {}, responseHeaders: {}, ...fields };
}

const base = (over: Partial<DeriveInput>): DeriveInput => ({
  entries: [],
  queues: [{ ref: 'queue1', id: 'queue-a', accessToken: 'tok', itemIds: new Set(['item-2', 'item-3']) }],
  cloudQueueUrl: CQ,
  faults: [],
  userTransitions: [],
  sessionOrigin: () => undefined,
  speed: 1,
  ...over,
});

const kinds = (steps: { type: string }[]) => steps.map((s) => s.type);

describe('deriving a scenario', () => {
  it('creates a session the traffic only used, and asks for an item the queue lacked by a name no queue holds', () => {
    const load = entry('control', 1_000, '/api/v1/playbackSessions/session-old/playbackSession:1/loadCloudQueue', {
      requestBody: JSON.stringify({ queueBaseUrl: `${CQ}/queues/queue-a/v2.0/`, httpAuthorization: 'Bearer other', itemId: 'item-9' }),
    });
    const { steps, notes } = deriveScenario(base({ entries: [load], sessionOrigin: () => ({ groupId: 'group-office', appId: 'app', appContext: 'ctx' }) }));
    expect(steps.slice(2)).toEqual([
      { type: 'command', method: 'POST', path: '/api/v1/groups/group-office/playbackSession:1', body: { appId: 'app', appContext: 'ctx' }, save: { session1: 'sessionId' } },
      {
        type: 'command',
        method: 'POST',
        path: '/api/v1/playbackSessions/${session1}/playbackSession:1/loadCloudQueue',
        body: { queueBaseUrl: '${queue1.url}/v2.0/', httpAuthorization: 'Bearer other', itemId: 'missing-item-9' },
        expectStatus: 200,
      },
    ]);
    expect(notes.join('\n')).toMatch(/session session-old was created before/);
    expect(notes.join('\n')).toMatch(/not queue queue-a's current one/);
    expect(notes.join('\n')).toMatch(/item item-9 was not in queue queue-a/);
  });

  it('moves the clock over a gap longer than one clock step allows in several steps, so the bundle imports back', () => {
    const year = 366 * 86_400_000;
    const { steps } = deriveScenario(
      base({ entries: [entry('control', 1_000, '/api/v1/groups/group-office/playback:1/play'), entry('control', 1_000 + 2.5 * year, '/api/v1/groups/group-office/playback:1/pause')] }),
    );
    const moves = steps.filter((s) => s.type === 'clock' && s.advanceMs !== undefined).map((s) => (s as { advanceMs: number }).advanceMs);
    expect(moves).toEqual([year, year, 0.5 * year]);
  });

  it('places user actions that came by IPC by engine time, and rules before requests of their instant', () => {
    const rule = { id: 'fault-1', target: 'cloudQueue', match: {}, action: { type: 'drop' }, hits: 3, passes: 0, spent: true, createdAt: 2_000, times: 3 } as FaultRule;
    const { steps } = deriveScenario(
      base({
        entries: [
          entry('control', 1_000, '/api/v1/groups/group-office/playback:1/play'),
          entry('control', 2_000, '/api/v1/groups/group-office/playback:1/pause'),
          entry('player', 9_000, '/queues/queue-a/v2.3/version', { method: 'GET' }),
        ],
        userTransitions: [{ playerId: 'player-office', at: 1_500, event: 'skipNext' }],
        faults: [rule],
      }),
    );
    expect(steps.slice(2)).toEqual([
      expect.objectContaining({ type: 'command', path: '/api/v1/groups/group-office/playback:1/play' }),
      { type: 'clock', advanceMs: 500 },
      { type: 'action', playerId: 'player-office', action: 'skipNext' },
      { type: 'clock', advanceMs: 500 },
      { type: 'fault', rule: { target: 'cloudQueue', match: {}, action: { type: 'drop' }, times: 3 } },
      expect.objectContaining({ type: 'command', path: '/api/v1/groups/group-office/playback:1/pause' }),
      { type: 'clock', advanceMs: 7_000 },
    ]);
  });

  it('takes an action the admin API carried once, though the player recorded it too', () => {
    const { steps } = deriveScenario(
      base({
        entries: [
          entry('console', 1_000, '/admin/api/players/player-office/actions', { requestBody: '{"action":"pause"}' }),
          entry('console', 1_000, '/admin/api/commands/players.act', { requestBody: '{"id":"player-office","action":"skipNext"}', status: 409 }),
        ],
        userTransitions: [{ playerId: 'player-office', at: 1_000, event: 'pause' }],
      }),
    );
    expect(steps.slice(2)).toEqual([
      { type: 'action', playerId: 'player-office', action: 'pause' },
      { type: 'action', playerId: 'player-office', action: 'skipNext', expectError: true },
    ]);
  });

  it('leaves out what it cannot replay, and says so', () => {
    const { steps, notes } = deriveScenario(
      base({
        entries: [
          entry('control', 1_000, '/api/v1/groups/g/playback:1/play', { status: 401 }),
          entry('control', 1_000, '/api/v1/groups/g/playback:1/pause', { status: null, outcome: 'timeout' }),
          entry('control', 1_000, '/api/v1/groups/g/groupVolume:1', { requestBody: 'volume=3' }),
          entry('control', 1_000, '/api/v1/households', { method: 'GET' }),
          entry('cloudQueue', 1_000, '/queues/queue-a/v2.3/version', { method: 'GET', status: null, fault: { ruleId: 'fault-removed', action: 'drop', label: 'dropped' } }),
        ],
      }),
    );
    expect(kinds(steps)).toEqual(['clearFaults', 'clock']);
    expect(notes).toEqual([
      expect.stringMatching(/answered 401/),
      expect.stringMatching(/got no answer/),
      expect.stringMatching(/not JSON/),
      expect.stringMatching(/rules removed since \(dropped\)/),
    ]);
  });

  it('finds the queues of this console the traffic used, by path and by loadCloudQueue body', () => {
    const used = queueIdsUsed(
      [
        entry('cloudQueue', 0, '/queues/queue-a/v2.3/context', { method: 'GET' }),
        entry('player', 0, '/queues/queue-b/v2.3/itemWindow', { method: 'GET', url: `${CQ}/queues/queue-b/v2.3/itemWindow` }),
        entry('player', 0, '/queues/queue-x/v2.3/itemWindow', { method: 'GET', url: 'http://elsewhere/queues/queue-x/v2.3/itemWindow' }),
        entry('control', 0, '/api/v1/playbackSessions/s/playbackSession:1/loadCloudQueue', { requestBody: JSON.stringify({ queueBaseUrl: `${CQ}/queues/queue-c/v2.3/` }) }),
      ],
      CQ,
    );
    expect(used).toEqual(['queue-a', 'queue-b', 'queue-c']);
  });
});

describe('checking a bundle', () => {
  it('says plainly when a file is not a bundle at all', () => {
    expect(() => checkBundle('hello')).toThrow('a repro bundle is a JSON object');
    expect(() => checkBundle({ log: { entries: [] } })).toThrow(/not a repro bundle: "format" is missing/);
  });
});
