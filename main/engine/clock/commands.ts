/** Command handlers of the engine clock. */
import type { CommandHandlers } from '../api/runner.js';
import type { EngineClock } from './clock.js';

export function clockCommands(clock: EngineClock): Pick<CommandHandlers, 'clock.get' | 'clock.set'> {
  return {
    'clock.get': () => clock.state(),
    'clock.set': async ({ speed, advanceMs }) => {
      if (speed !== undefined) clock.setSpeed(speed);
      if (advanceMs !== undefined && advanceMs > 0) await clock.advance(advanceMs);
      return clock.state();
    },
  };
}
