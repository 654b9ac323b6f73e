import { describe, expect, it } from 'vitest';
import type { TrafficSummary } from '@engine-api/traffic-types';
import { entryOf, foldRequests, shownRows } from './request-rows';

let nextId = 1;
function entry(over: Partial<TrafficSummary>): TrafficSummary {
  return {
    id: nextId++,
    target: 'player',
    at: 1_000,
    wallAt: 0,
    method: 'GET',
    path: '/queues/q1/v2.3/itemWindow',
    reason: 'load',
    status: 200,
    latencyMs: 12,
    retry: 0,
    fault: null,
    playerId: 'p1',
    requestId: 'r1',
    outcome: 'answered',
    ...over,
  };
}

describe('foldRequests', () => {
  it('folds the player side and the server side of one request into one row, the player side first', () => {
    const client = entry({ target: 'player', requestId: 'r1', status: 503, latencyMs: 40, retry: 2 });
    const server = entry({
      target: 'cloudQueue',
      requestId: 'r1',
      playerId: null,
      at: 1_005,
      status: 503,
      latencyMs: 3,
      retry: null,
      fault: { ruleId: 'f1', label: '503 storm', action: 'status', status: 503 },
    });
    const rows = foldRequests([server, client], 'p1');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      requestId: 'r1',
      status: 503,
      retry: 2,
      latencyMs: 40,
      playerId: 'p1',
      at: 1_000,
      fault: { label: '503 storm' },
    });
    expect(rows[0]!.client).toBe(client);
    expect(rows[0]!.server).toBe(server);
    expect(entryOf(rows[0]!)).toBe(client.id);
  });

  it('keeps a player-side fault over the server side, and the status the player got', () => {
    const client = entry({
      requestId: 'r2',
      status: 404,
      fault: { ruleId: 'f2', label: '404 on itemWindow', action: 'status', status: 404 },
    });
    const rows = foldRequests([client], 'p1');
    expect(rows[0]).toMatchObject({ status: 404, fault: { ruleId: 'f2' }, server: null });
  });

  it('leaves out other players and their server sides, and targets that are not the player’s requests', () => {
    const mine = entry({ requestId: 'a', at: 10 });
    const other = entry({ requestId: 'b', playerId: 'p2', at: 20 });
    const otherServer = entry({ target: 'cloudQueue', requestId: 'b', playerId: null, at: 21 });
    const control = entry({ target: 'control', requestId: 'a', playerId: null, at: 11 });
    const rows = foldRequests([mine, other, otherServer, control], 'p1');
    expect(rows.map((r) => r.requestId)).toEqual(['a']);
    expect(rows[0]!.server).toBeNull();
  });

  it('keeps a server entry that names the player in X-Player-Id though its client side was trimmed away', () => {
    const server = entry({ target: 'cloudQueue', requestId: 'old', playerId: 'p1', status: 200 });
    const rows = foldRequests([server], 'p1');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ client: null, status: 200 });
    expect(entryOf(rows[0]!)).toBe(server.id);
  });

  it('lists newest first, and keeps entries without a request id apart', () => {
    const older = entry({ requestId: null, at: 5 });
    const newer = entry({ requestId: null, at: 9 });
    const rows = foldRequests([older, newer], 'p1');
    expect(rows.map((r) => r.client!.id)).toEqual([newer.id, older.id]);
  });
});

describe('shownRows', () => {
  const rows = foldRequests(
    [
      entry({ requestId: 'ok', status: 200 }),
      entry({ requestId: 'report', method: 'POST', path: '/queues/q1/v2.3/timePlayed?x=1', reason: null, status: 204 }),
      entry({ requestId: 'failed-report', method: 'POST', path: '/queues/q1/v2.3/timePlayed', status: 500 }),
      entry({ requestId: 'no-answer', status: null, outcome: 'incomplete' }),
      entry({ requestId: 'not-found', status: 404 }),
      entry({ requestId: 'delayed', status: 200, fault: { ruleId: 'f2', action: 'latency' } }),
      entry({ requestId: 'redirect', status: 302 }),
    ],
    'p1',
  );
  const ids = (shown: Parameters<typeof shownRows>[1]) => shownRows(rows, shown).map((row) => row.requestId);

  it('shows every row, in their order, for all', () => {
    expect(ids('all')).toEqual(rows.map((row) => row.requestId));
  });

  it('keeps a failed or faulted request, a report among them, and nothing that was answered cleanly', () => {
    expect(ids('failed').sort()).toEqual(['delayed', 'failed-report', 'no-answer', 'not-found']);
  });

  it('leaves out the reports, failed or not, and keeps the rest', () => {
    expect(ids('no-reports').sort()).toEqual(['delayed', 'no-answer', 'not-found', 'ok', 'redirect']);
  });
});
