/** Command handlers of the household model. */
import { EngineError } from '../api/errors.js';
import type { CommandHandlers } from '../api/runner.js';
import type { HouseholdViews } from './views.js';

export function householdCommands(views: HouseholdViews): Pick<CommandHandlers, 'players.list' | 'players.get'> {
  return {
    'players.list': () => views.players(),
    'players.get': ({ id }) => {
      const player = views.player(id);
      if (!player) throw new EngineError('not_found', `no player ${id}`);
      return player;
    },
  };
}
