/** Command handlers of the simulated players. */
import type { ControlExample, ControlExchange, ControlSender } from '../api/commands/player.js';
import { EngineError } from '../api/errors.js';
import type { CommandHandlers } from '../api/runner.js';
import { PLAYER_VIOLATIONS_KEPT, type TransitionRow } from '../api/player-types.js';
import { PlaybackError } from './errors.js';
import type { HouseholdViews } from '../household/views.js';
import type { Player } from './player.js';
import type { PlayerRegistry } from './registry.js';
import { TRANSITIONS } from './transitions.js';

/** Sends a request to the control API as an integration would: with the console's own token, or `as` a grant's. */
export type ControlCaller = (
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  as?: { grantId: string },
) => Promise<ControlExchange>;

/** What the command bar offers besides sending: whom it can send as, and example requests. */
export interface CommandBarSources {
  senders(): ControlSender[];
  examples(groupId?: string): ControlExample[];
}

type PlayerCommandNames =
  | 'players.get'
  | 'players.act'
  | 'players.detail'
  | 'players.transitions'
  | 'players.violations'
  | 'players.table'
  | 'control.send'
  | 'control.senders'
  | 'control.examples';

export function playerCommandHandlers(
  registry: PlayerRegistry,
  views: Pick<HouseholdViews, 'player'>,
  callControl: ControlCaller,
  commandBar: CommandBarSources,
): Pick<CommandHandlers, PlayerCommandNames> {
  const find = (id: string): Player => {
    const player = registry.forPlayer(id);
    if (!player) throw new EngineError('not_found', `no player ${id}`);
    return player;
  };
  return {
    // The household's player with the detail of the group's player that plays for it: the one
    // call a script reads a player's lastError and newest violations from (docs/contract/console.md §5).
    'players.get': ({ id }) => {
      const player = views.player(id);
      if (!player) throw new EngineError('not_found', `no player ${id}`);
      return { ...registry.detail(find(id)), ...player };
    },
    'players.act': async ({ id, action }) => {
      const player = find(id);
      try {
        await player.act(action, 'user');
      } catch (error) {
        if (error instanceof PlaybackError)
          throw new EngineError('conflict', error.reason, { errorCode: error.errorCode, ...error.extra });
        throw error;
      }
      return registry.detail(player);
    },
    'players.detail': ({ id }) => registry.detail(find(id)),
    'players.transitions': ({ id, limit }) => registry.transitions(find(id).id, limit ?? 200),
    'players.violations': ({ id, limit }) => ({
      violations: registry.violations(find(id).id, limit ?? PLAYER_VIOLATIONS_KEPT),
    }),
    'players.table': () =>
      TRANSITIONS.map(
        (row) =>
          ({
            ...row,
            from: [...row.from],
            on: [...row.on],
            guard: row.guard ?? null,
            effects: [...row.effects],
          }) as TransitionRow,
      ),
    'control.send': ({ method, path, body, as }) => callControl(method, path, body, as),
    'control.senders': () => commandBar.senders(),
    'control.examples': ({ groupId }) => commandBar.examples(groupId),
  };
}
