/** Command handlers of the fleet (docs/fleet.md). */
import type { CommandHandlers } from '../api/runner.js';
import type { FleetRuns } from './runs.js';

type Names = 'fleets.start' | 'fleets.list' | 'fleets.get' | 'fleets.stop' | 'fleets.export';

export function fleetCommandHandlers(fleets: FleetRuns): Pick<CommandHandlers, Names> {
  return {
    'fleets.start': (input) => fleets.start(input),
    'fleets.list': () => fleets.list(),
    'fleets.get': ({ id }) => fleets.get(id),
    'fleets.stop': ({ id }) => fleets.stop(id),
    'fleets.export': ({ id, format }) => fleets.export(id, format),
  };
}
