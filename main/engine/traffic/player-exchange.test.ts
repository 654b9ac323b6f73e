/** A player's exchange as a log entry: a timeout shows the wait it had, not the wall ms a fast clock took. */
import { describe, expect, it } from 'vitest';
import type { PlayerExchange } from '../player/client.js';
import { entryOfExchange } from './player-exchange.js';

const exchange = (change: Partial<PlayerExchange>): PlayerExchange => ({
  requestId: 'r1',
  playerId: 'player-kitchen',
  endpoint: 'version',
  method: 'GET',
  url: 'http://127.0.0.1:9/queues/q/v2.3/version',
  retry: 0,
  requestHeaders: {},
  startedAt: 0,
  wallAt: 0,
  durationMs: 10_000,
  latencyMs: 52,
  violations: [],
  trafficId: null,
  ...change,
});

describe('a player exchange in the log', () => {
  it('shows a timeout with the 10 s it waited', () => {
    const entry = entryOfExchange(
      exchange({ failure: { kind: 'incomplete', message: 'no complete response within 10 s' } }),
    );
    expect(entry).toMatchObject({ outcome: 'timeout', latencyMs: 10_000, status: null });
  });

  it('keeps the wall latency of an answer and of a dropped request', () => {
    expect(entryOfExchange(exchange({ status: 200, durationMs: 0, latencyMs: 3 }))).toMatchObject({
      outcome: 'answered',
      latencyMs: 3,
    });
    expect(
      entryOfExchange(
        exchange({ durationMs: 0, latencyMs: 4, failure: { kind: 'incomplete', message: 'socket hang up' } }),
      ),
    ).toMatchObject({ outcome: 'incomplete', latencyMs: 4 });
  });
});
