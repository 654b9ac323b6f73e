import { describe, expect, it } from 'vitest';
import type { PlayerExchange } from '../player/client.js';
import { FleetMetrics, isError } from './metrics.js';

const exchange = (change: Partial<PlayerExchange>): PlayerExchange => ({
  requestId: 'r',
  playerId: 'p',
  endpoint: 'context',
  method: 'GET',
  url: 'http://127.0.0.1/q/context',
  retry: 0,
  requestHeaders: {},
  startedAt: 0,
  wallAt: 0,
  durationMs: 1,
  latencyMs: 1,
  violations: [],
  trafficId: null,
  ...change,
});

describe('what the fleet counts as an error', () => {
  it('is an answer the player could not use: none, not 2xx, or a 2xx it could not read', () => {
    expect(isError(exchange({ status: 200 }))).toBe(false);
    expect(isError(exchange({ status: 204, endpoint: 'timePlayed' }))).toBe(false);
    expect(isError(exchange({ status: 503 }))).toBe(true);
    expect(isError(exchange({ failure: { kind: 'incomplete', message: 'no complete response within 10 s' } }))).toBe(
      true,
    );
    // A server's HTML page answered with 200: the player has no context, the fleet an error.
    expect(isError(exchange({ status: 200, failure: { kind: 'other', status: 200, message: 'not JSON' } }))).toBe(true);
  });

  it('counts a 2xx it could not read among the errors, under its status, not as a transport error', () => {
    const metrics = new FleetMetrics();
    metrics.record(exchange({ status: 200 }));
    metrics.record(exchange({ status: 200, failure: { kind: 'other', status: 200, message: 'not JSON' } }));
    expect(metrics.totals).toMatchObject({ requests: 2, errors: 1, transportErrors: 0 });
    expect(metrics.endpointStats()[0]!.statuses).toEqual({ 200: 2 });
  });
});
