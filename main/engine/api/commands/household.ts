/** Commands of the household model: players added, renamed, removed, grouped and ungrouped. */
import Type from 'typebox';
import { command } from '../command.js';
import { PLAYER_NAME_MAX_CHARS } from '../player-types.js';
import type { GroupView, PlayerView } from '../types.js';
import { Empty, Id } from './shared.js';

const PlayerName = Type.String({ minLength: 1, maxLength: PLAYER_NAME_MAX_CHARS });

export const householdCommandSpecs = {
  'players.create': command<PlayerView>()({
    summary: 'Adds a player, in a group of its own (default household: the first one).',
    input: Type.Object({ name: PlayerName, householdId: Type.Optional(Type.String({ minLength: 1 })) }),
    http: { method: 'POST', path: '/players' },
  }),
  'players.update': command<PlayerView>()({
    summary: 'Renames a player.',
    input: Type.Object({ id: Type.String({ minLength: 1 }), name: PlayerName }),
    http: { method: 'PATCH', path: '/players/:id' },
  }),
  'players.delete': command<Record<string, never>>()({
    summary: 'Removes a player; its group keeps its other members under a new coordinator.',
    input: Id,
    http: { method: 'DELETE', path: '/players/:id' },
  }),
  'groups.list': command<GroupView[]>()({
    summary: 'Every group, coordinator first in playerIds.',
    input: Empty,
    http: { method: 'GET', path: '/groups' },
  }),
  'groups.create': command<GroupView>()({
    summary: 'Groups players (coordinator: coordinatorId or the first); they leave their old groups.',
    input: Type.Object({
      playerIds: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 64 }),
      coordinatorId: Type.Optional(Type.String({ minLength: 1 })),
    }),
    http: { method: 'POST', path: '/groups' },
  }),
  'groups.delete': command<Record<string, never>>()({
    summary: 'Ungroups: every member of the group stands alone in a group of its own.',
    input: Id,
    http: { method: 'DELETE', path: '/groups/:id' },
  }),
};
