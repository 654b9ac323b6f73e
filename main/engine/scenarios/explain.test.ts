/**
 * A failed check of transitions explains itself: the two sequences side by side from the first
 * difference (later agreements lined up), and the player's exchanges around it with the rule that
 * acted on each, read from the traffic log and joined with the console server's side.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ExplainedExchange, ExplainedTransition } from '../api/expectation-types.js';
import type { PlayerTransition } from '../api/player-types.js';
import { openStore } from '../store/store.js';
import { testTrafficEntry } from '../testing/traffic.js';
import { TrafficLog, TrafficLogFile } from '../traffic/log/index.js';
import {
  alignTransitions,
  explainEnd,
  explainExpectation,
  playerExchangeReader,
  type ExchangeReader,
} from './explain.js';

let seq = 0;
function transition(name: string, at = 0, requestId: string | null = null): PlayerTransition {
  return {
    seq: ++seq,
    playerId: 'player-kitchen',
    groupId: 'group-kitchen',
    at,
    from: 'PLAYING',
    to: 'PLAYING',
    event: 'e',
    cause: 'response',
    transition: name,
    requestId,
    detail: null,
  };
}
const names = (list: (ExplainedTransition | null)[]) => list.map((t) => t?.transition ?? null);

function exchange(
  fields: Partial<ExplainedExchange> & { trafficId: number },
): Omit<ExplainedExchange, 'caused' | 'anchor'> {
  return {
    at: 0,
    method: 'GET',
    path: '/queues/q/v2.3/version',
    reason: null,
    status: 200,
    outcome: 'answered',
    retry: 0,
    requestId: `r${fields.trafficId}`,
    fault: null,
    ...fields,
  };
}

describe('alignTransitions', () => {
  it('answers null when every expected transition came in order, others between them allowed', () => {
    expect(alignTransitions(['a', 'c'], [transition('a'), transition('b'), transition('c')])).toBeNull();
  });

  it('pairs what was due with what came instead, and lines up a later agreement', () => {
    const actual = ['load-begins', 'load-answered-plays', 'audio-ready', 'track-fetched', 'background-exhausted'].map(
      (name) => transition(name),
    );
    const alignment = alignTransitions(['load-begins', 'load-answered-pauses', 'background-exhausted'], actual)!;
    expect(alignment.firstDifference).toBe(1);
    expect(
      alignment.rows.map((row) => [row.expected, row.actual?.transition ?? null, row.mark, row.first ?? false]),
    ).toEqual([
      ['load-begins', 'load-begins', 'same', false],
      ['load-answered-pauses', 'load-answered-plays', 'differs', true],
      [null, 'audio-ready', 'passed-over', false],
      [null, 'track-fetched', 'passed-over', false],
      ['background-exhausted', 'background-exhausted', 'same', false],
    ]);
    expect(alignment.firstRow).toBe(1);
    expect(alignment.lastMet?.transition).toBe('load-begins');
    expect(alignment.differing?.transition).toBe('load-answered-plays');
  });

  it('says when the player went through nothing more', () => {
    const alignment = alignTransitions(['a', 'b', 'c'], [transition('a')])!;
    expect(alignment.rows.map((row) => [row.expected, row.actual?.transition ?? null, row.mark])).toEqual([
      ['a', 'a', 'same'],
      ['b', null, 'differs'],
      ['c', null, 'differs'],
    ]);
    expect(alignment.differing).toBeNull();
  });

  it("follows the runner's check: the first expected transition not found after the ones met", () => {
    // The runner meets `a` at the end and then finds no `b` after it: b is the first difference.
    const alignment = alignTransitions(['a', 'b', 'c'], [transition('b'), transition('c'), transition('a')])!;
    expect(alignment.firstDifference).toBe(1);
    expect(names(alignment.rows.map((row) => row.actual))).toEqual(['b', 'c', 'a', null, null]);
    expect(alignment.rows.map((row) => row.expected)).toEqual([null, null, 'a', 'b', 'c']);
  });
});

describe('explainExpectation', () => {
  it('shows a little before the first difference and a few rows from it, saying how many were left out', () => {
    const met = Array.from({ length: 10 }, (_, i) => `met-${i}`);
    const actual = [...met, ...Array.from({ length: 20 }, (_, i) => `other-${i}`)].map((name, i) =>
      transition(name, i),
    );
    const explanation = explainExpectation({
      playerId: 'player-kitchen',
      expected: [...met, 'never'],
      actual,
      checkedAt: 100,
      spanStart: 0,
    })!;
    expect(explanation.firstDifference).toBe(10);
    expect(explanation.rows.map((row) => row.expected)).toEqual([
      'met-7',
      'met-8',
      'met-9',
      'never',
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(explanation.rows[3]).toMatchObject({
      first: true,
      mark: 'differs',
      actual: { transition: 'other-0', at: 10 },
    });
    expect(explanation.omitted).toEqual({ before: 7, after: 12 });
    expect(explanation.at).toBe(10);
    expect(explanation.exchanges).toEqual([]);
    expect(explanation.exchangesNote).toMatch(/no traffic log/);
  });

  it('hangs the exchanges on the request whose answer caused the differing transition, from the last transition met on', () => {
    const actual = [transition('load-begins', 1_000), transition('load-answered-plays', 1_000, 'r-load')];
    const span = [
      exchange({ trafficId: 1, at: 1_000, path: '/queues/q/v2.3/context' }),
      exchange({ trafficId: 2, at: 1_000, path: '/queues/q/v2.3/itemWindow', reason: 'load', requestId: 'r-load' }),
      exchange({
        trafficId: 3,
        at: 31_000,
        method: 'POST',
        path: '/queues/q/v2.3/timePlayed',
        status: 503,
        fault: { ruleId: 'fault-1', label: '503 storm', action: 'status', status: 503, target: 'cloudQueue' },
      }),
    ];
    const read = vi.fn<ExchangeReader>(() => ({ exchanges: span }));
    const explanation = explainExpectation({
      playerId: 'player-kitchen',
      expected: ['load-begins', 'load-answered-pauses'],
      actual,
      checkedAt: 60_000,
      spanStart: 0,
      read,
    })!;
    expect(read).toHaveBeenCalledWith('player-kitchen', 1_000);
    expect(explanation.exchanges.map((e) => [e.trafficId, e.anchor ?? false, e.caused])).toEqual([
      [1, false, []],
      [2, true, ['load-answered-plays']],
      [3, false, []],
    ]);
    expect(explanation.exchanges[2]?.fault).toMatchObject({ label: '503 storm', target: 'cloudQueue' });
  });

  it('hangs them on the first failed exchange when no request caused what came, and keeps a window around it', () => {
    const actual = [transition('load-answered-plays', 0, 'r0'), transition('track-fetched', 200_000)];
    const span = Array.from({ length: 20 }, (_, i) =>
      exchange({
        trafficId: i,
        at: i * 30_000,
        ...(i === 12
          ? { status: 503, fault: { ruleId: 'fault-2', action: 'status', status: 503, target: 'player' } }
          : {}),
      }),
    );
    const explanation = explainExpectation({
      playerId: 'player-kitchen',
      expected: ['load-answered-plays', 'background-exhausted'],
      actual,
      checkedAt: 600_000,
      spanStart: 0,
      read: () => ({ exchanges: span }),
    })!;
    expect(explanation.exchanges.map((e) => e.trafficId)).toEqual([7, 8, 9, 10, 11, 12, 13, 14, 15]);
    expect(explanation.exchanges.find((e) => e.anchor)?.trafficId).toBe(12);
    expect(explanation.exchangesOmitted).toEqual({ before: 7, after: 4 });
  });

  it('says why no exchanges are shown when the player made none', () => {
    const explanation = explainExpectation({
      playerId: 'p',
      expected: ['x'],
      actual: [],
      checkedAt: 5,
      spanStart: 0,
      read: () => ({ exchanges: [] }),
    })!;
    expect(explanation).toMatchObject({
      at: 5,
      rows: [{ expected: 'x', actual: null, first: true }],
      exchanges: [],
      exchangesNote: expect.stringMatching(/made no requests/),
    });
  });
});

describe('explainEnd', () => {
  const span = Array.from({ length: 12 }, (_, i) =>
    exchange({
      trafficId: i,
      at: i * 10_000,
      ...(i === 3 ? { status: 503 } : {}),
      ...(i === 6 ? { requestId: 'r-window' } : {}),
    }),
  );
  const read = vi.fn<ExchangeReader>(() => ({ exchanges: span }));
  const input = { playerId: 'player-kitchen', checkedAt: 200_000, spanStart: 500, read };

  it('shows every transition since the previous check, met or let pass, and the answer the last one came from', () => {
    const actual = [
      transition('load-begins', 1_000),
      transition('audio-ready', 2_000),
      transition('skip-next', 60_000, 'r-window'),
    ];
    const explanation = explainEnd({ ...input, expected: ['load-begins', 'skip-next'], actual, subject: 'state' });
    expect(read).toHaveBeenLastCalledWith('player-kitchen', 500);
    expect(explanation.rows.map((row) => [row.expected, row.actual?.transition, row.mark])).toEqual([
      ['load-begins', 'load-begins', 'same'],
      [null, 'audio-ready', 'passed-over'],
      ['skip-next', 'skip-next', 'same'],
    ]);
    expect(explanation).toMatchObject({ subject: 'state', firstDifference: 2, at: 60_000 });
    expect(explanation.exchanges.find((e) => e.anchor)).toMatchObject({ trafficId: 6, caused: ['skip-next'] });
  });

  it('marks the last exchange before the check when no answer made the last transition, and the first failed for requests', () => {
    const actual = [transition('pause', 150_000)];
    const end = explainEnd({ ...input, expected: [], actual, subject: 'item' });
    expect(end.exchanges.find((e) => e.anchor)?.trafficId).toBe(11);
    expect(end.exchangesOmitted).toEqual({ before: 6, after: 0 });
    const requests = explainEnd({ ...input, expected: [], actual, subject: 'requests' });
    expect(requests.exchanges.find((e) => e.anchor)).toMatchObject({ trafficId: 3, status: 503 });
  });

  it('keeps the newest rows of a long span, saying how many were left out', () => {
    const actual = Array.from({ length: 20 }, (_, i) => transition(`row-${i}`, i));
    const explanation = explainEnd({ ...input, expected: [], actual, subject: 'state' });
    expect(explanation.rows).toHaveLength(8);
    expect(explanation.rows[0]?.actual?.transition).toBe('row-12');
    expect(explanation.omitted).toEqual({ before: 12, after: 0 });
  });
});

describe('playerExchangeReader', () => {
  function logWith(entries: Parameters<typeof testTrafficEntry>[0][]) {
    const store = openStore({ dataDir: null }, Date.now(), new TrafficLogFile());
    const log = new TrafficLog(store.db);
    log.append(
      entries.map((fields) => testTrafficEntry(fields)),
      1_000,
    );
    return { log, close: () => store.close() };
  }

  it("reads the player's own requests from an engine time on, each with the rule of its client or of the console's server", () => {
    const storm = { ruleId: 'fault-1', label: '503 storm', action: 'status' as const, status: 503 };
    const { log, close } = logWith([
      { target: 'player', playerId: 'player-kitchen', requestId: 'old', at: 10 },
      // The same request twice: as the player sent it, and as the console's cloud queue server failed it.
      { target: 'cloudQueue', playerId: 'player-kitchen', requestId: 'a', at: 101, status: 503, fault: storm },
      { target: 'player', playerId: 'player-kitchen', requestId: 'a', at: 100, status: 503, retry: 0 },
      {
        target: 'player',
        playerId: 'player-kitchen',
        requestId: 'b',
        at: 200,
        path: '/queues/q/v2.3/itemWindow',
        reason: 'refresh',
        status: null,
        outcome: 'timeout',
        fault: { ruleId: 'fault-2', action: 'timeout' },
      },
      { target: 'player', playerId: 'player-office', requestId: 'c', at: 150 },
      { target: 'cloudQueue', playerId: 'player-kitchen', requestId: 'd', at: 300 },
      { target: 'player', playerId: 'player-kitchen', requestId: 'd', at: 300, retry: 1 },
    ]);
    const recorder = { flush: vi.fn(), capturing: true };
    const { exchanges, note } = playerExchangeReader(log, recorder)('player-kitchen', 50);
    expect(recorder.flush).toHaveBeenCalled();
    expect(note).toBeUndefined();
    expect(exchanges.map(({ trafficId: _id, ...rest }) => rest)).toEqual([
      {
        at: 100,
        method: 'GET',
        path: '/queues/q/v2.3/version',
        reason: null,
        status: 503,
        outcome: 'answered',
        retry: 0,
        requestId: 'a',
        fault: { ...storm, target: 'cloudQueue' },
      },
      {
        at: 200,
        method: 'GET',
        path: '/queues/q/v2.3/itemWindow',
        reason: 'refresh',
        status: null,
        outcome: 'timeout',
        retry: null,
        requestId: 'b',
        fault: { ruleId: 'fault-2', action: 'timeout', target: 'player' },
      },
      {
        at: 300,
        method: 'GET',
        path: '/queues/q/v2.3/version',
        reason: null,
        status: 200,
        outcome: 'answered',
        retry: 1,
        requestId: 'd',
        fault: null,
      },
    ]);
    close();
  });

  it('says that capture is off when it found nothing for that reason', () => {
    const { log, close } = logWith([]);
    expect(playerExchangeReader(log, { flush: () => undefined, capturing: false })('player-kitchen', 0)).toEqual({
      exchanges: [],
      note: expect.stringMatching(/capture is off/),
    });
    close();
  });
});
