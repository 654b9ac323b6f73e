/** Households and groups of the caller's household (docs/contract/console.md §3). */
import type { FastifyInstance } from 'fastify';
import { PlaybackError } from '../../player/errors.js';
import { param, route, type ControlDeps } from './context.js';

/** What every simulated player can do. */
const CAPABILITIES = ['CLOUD', 'PLAYBACK', 'AUDIO_CLIP'];

export function householdRoutes(api: FastifyInstance, deps: ControlDeps): void {
  route(api, 'GET', '/households', (request) => ({
    households: deps.views.households().filter((h) => h.id === request.access?.householdId),
  }));

  route(api, 'GET', '/households/:householdId/groups', (request) => {
    const householdId = param(request, 'householdId');
    if (householdId !== request.access?.householdId)
      throw new PlaybackError('ERROR_INVALID_OBJECT_ID', `no household ${householdId}`);
    return householdGroupsOf(deps, householdId);
  });
}

/** A household's groups and players as `GET …/groups` answers them, and its `groups` events carry them. */
export function householdGroupsOf(deps: Pick<ControlDeps, 'views' | 'players'>, householdId: string) {
  const players = deps.views.players().filter((p) => p.householdId === householdId);
  return {
    groups: deps.views
      .groups()
      .filter((g) => g.householdId === householdId)
      .map((g) => ({
        id: g.id,
        name: g.name,
        coordinatorId: g.coordinatorId,
        playbackState: deps.players.forGroup(g.id)?.status().playbackState ?? 'PLAYBACK_STATE_IDLE',
        playerIds: g.playerIds,
      })),
    players: players.map((p) => ({ id: p.id, name: p.name, capabilities: CAPABILITIES })),
  };
}
