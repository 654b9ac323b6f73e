/**
 * A scenario run's report in words, wherever it shows: the Faults area's report and the Traffic
 * area's bundle import (a bundle may carry a scenario, run on import).
 */
import type { ScenarioReport } from '@engine-api/scenario-types';

/** A step as people count it, from 1: a report's `index` and an error's path count from 0. */
export function stepNumber(index: number): number {
  return index + 1;
}

/** What a run put back as it found it, in a line: "clock back to 1×, 2 fault rules of the run removed". */
export function restoredText({
  clockSpeed,
  faultsRemoved,
  faultsPutBack,
}: NonNullable<ScenarioReport['restored']>): string {
  const rules = (n: number) => `${n} fault ${n === 1 ? 'rule' : 'rules'}`;
  const said = [
    clockSpeed === null ? '' : clockSpeed === 0 ? 'clock stopped again, as it was' : `clock back to ${clockSpeed}×`,
    faultsRemoved ? `${rules(faultsRemoved)} of the run removed` : '',
    faultsPutBack ? `${rules(faultsPutBack)} it cleared put back` : '',
  ].filter(Boolean);
  return said.length ? said.join(', ') : 'nothing to put back, the clock and the fault rules are as the run found them';
}
