/** The fleet in words: a percentile said to a tenth of a millisecond, as the JSON says it (audit z1-7). */
import { describe, expect, it } from 'vitest';
import type { FleetEndpointReport } from '../../api/fleet-types.js';
import { endpointLine } from './text.js';

describe('an endpoint line', () => {
  it('says each percentile to a tenth of a millisecond, as the JSON and the thresholds do', () => {
    const stats = {
      endpoint: 'context',
      reason: null,
      requests: 40,
      retries: 0,
      transportErrors: 0,
      faulted: 0,
      statuses: { '200': 40 },
      latency: { count: 40, p50: 2.06, p90: 3, p99: 500.24, max: 1_231.5 },
    } as unknown as FleetEndpointReport;
    expect(endpointLine(stats)).toBe(
      'context  40 requests · 200 ×40 · 0 transport errors · 0 retries · p50 2.1ms p90 3ms p99 500.2ms max 1231.5ms',
    );
  });
});
