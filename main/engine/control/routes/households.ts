/** Households and groups of the caller's household (docs/contract/console.md §3). */
import type { FastifyInstance } from 'fastify';
import { householdGroupsOf } from '../../event-delivery/namespace-bodies.js';
import { PlaybackError } from '../../player/errors.js';
import { param, route, type ControlDeps } from './context.js';

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
