import { describe, expect, it } from 'vitest';
import { restoredText, stepNumber } from './scenario-report';

describe("a scenario run's report in words", () => {
  it('says in a line what a run put back', () => {
    expect(restoredText({ clockSpeed: 1, faultsRemoved: 2, faultsPutBack: 1 })).toBe(
      'clock back to 1×, 2 fault rules of the run removed, 1 fault rule it cleared put back',
    );
    expect(restoredText({ clockSpeed: 0, faultsRemoved: 0, faultsPutBack: 0 })).toBe('clock stopped again, as it was');
    expect(restoredText({ clockSpeed: null, faultsRemoved: 0, faultsPutBack: 0 })).toBe(
      'nothing to put back, the clock and the fault rules are as the run found them',
    );
  });

  it('counts steps from 1, as people do', () => {
    expect(stepNumber(0)).toBe(1);
  });
});
