import { describe, expect, it } from 'vitest';
import type { FleetReport } from '@engine-api/fleet-types';
import { timedFaultStates } from './timed-faults';

const rule = { target: 'player' as const, action: { type: 'status' as const, status: 503 }, label: 'outage' };
const at = (engineMs: number, faults: FleetReport['options']['faults']) =>
  timedFaultStates({
    options: { faults } as FleetReport['options'],
    elapsed: { engineMs, wallMs: 0 },
  });

describe("the fleet's own timed faults, live", () => {
  it('says each as due, on now, or over, from the engine time played', () => {
    const faults = [{ rule, startMs: 10_000, durationMs: 60_000 }, { rule: { ...rule, label: undefined } }];
    expect(at(5_000, faults)).toEqual([
      { key: '0', label: 'outage', on: false, state: 'from 10 s, for 60 s' },
      { key: '1', label: 'fleet fault 2', on: true, state: 'on now, to the end' },
    ]);
    expect(at(10_000, faults)[0]).toMatchObject({ on: true, state: 'on now, until 70 s' });
    expect(at(70_000, faults)[0]).toMatchObject({ on: false, state: 'over' });
    expect(at(0, undefined)).toEqual([]);
  });
});
