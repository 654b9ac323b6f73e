import { describe, expect, it } from 'vitest';
import { shortRequestId, tabTitle } from './title';

describe('the tab title', () => {
  it('names the area, then the place in it, then the console', () => {
    expect(tabTitle('traffic', 'entry 12')).toBe('Traffic · entry 12 — Cloud Queue Console');
    expect(tabTitle('player', 'Kitchen')).toBe('Player · Kitchen — Cloud Queue Console');
    expect(tabTitle('conformance')).toBe('Check a server — Cloud Queue Console');
    expect(tabTitle('queues', '')).toBe('Queues — Cloud Queue Console');
  });

  it('shortens a request id as the filter chip does', () => {
    expect(shortRequestId('b8a1e1d2-5c4f-4f61-9f0e-2c3b1d0a9e77')).toBe('b8a1e1d2');
    expect(shortRequestId('r-1')).toBe('r-1');
  });
});
