/** Command handlers of the household model. */
import type { CommandHandlers } from '../api/runner.js';
import type { HouseholdEditor } from './edits.js';
import type { HouseholdViews } from './views.js';

type HouseholdCommandName =
  | 'players.list'
  | 'players.create'
  | 'players.update'
  | 'players.delete'
  | 'groups.list'
  | 'groups.create'
  | 'groups.delete';

export function householdCommands(
  views: HouseholdViews,
  editor: HouseholdEditor,
): Pick<CommandHandlers, HouseholdCommandName> {
  return {
    'players.list': () => views.players(),
    'players.create': ({ name, householdId }) => editor.createPlayer(name, householdId),
    'players.update': ({ id, name }) => editor.renamePlayer(id, name),
    'players.delete': ({ id }) => {
      editor.removePlayer(id);
      return {};
    },
    'groups.list': () => views.groups(),
    'groups.create': ({ playerIds, coordinatorId }) => editor.group(playerIds, coordinatorId),
    'groups.delete': ({ id }) => {
      editor.ungroup(id);
      return {};
    },
  };
}
