/**
 * The fleet's own timed faults (`fleets.start` faults) as the live panel says them: on now, due,
 * or over, from the engine time the fleet has played. They act in the fleet's players' clients
 * (its worker threads), not in the console's rule list, so this is where they show.
 */
import type { FleetReport } from '@engine-api/fleet-types';

export interface TimedFaultState {
  key: string;
  label: string;
  on: boolean;
  /** `on now, until 70 s`, `from 10 s, for 60 s`, `over`. */
  state: string;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export function timedFaultStates(report: Pick<FleetReport, 'options' | 'elapsed'>): TimedFaultState[] {
  const now = report.elapsed.engineMs;
  return (report.options.faults ?? []).map((fault, i) => {
    const start = fault.startMs ?? 0;
    const end = fault.durationMs === undefined ? Infinity : start + fault.durationMs;
    const label = fault.rule.label ?? `fleet fault ${i + 1}`;
    const until = end === Infinity ? 'to the end' : `until ${seconds(end)}`;
    if (now < start)
      return {
        key: `${i}`,
        label,
        on: false,
        state: `from ${seconds(start)}, ${fault.durationMs === undefined ? 'to the end' : `for ${seconds(fault.durationMs)}`}`,
      };
    if (now < end) return { key: `${i}`, label, on: true, state: `on now, ${until}` };
    return { key: `${i}`, label, on: false, state: 'over' };
  });
}
