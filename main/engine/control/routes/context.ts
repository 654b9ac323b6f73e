/**
 * What control routes share: how a path template is registered in all its spellings, and how a
 * group or session named in a path is found within the caller's household.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HouseholdViews } from '../../household/views.js';
import { PlaybackError } from '../../player/errors.js';
import type { Player } from '../../player/player.js';
import type { PlayerRegistry } from '../../player/registry.js';
import type { Store } from '../../store/store.js';
import type { Group } from '../../store/repositories/groups.js';
import { answer } from '../errors.js';
import { controlPaths } from '../paths.js';

export interface ControlDeps {
  views: HouseholdViews;
  store: Pick<Store, 'groups' | 'players'>;
  players: PlayerRegistry;
}

type Handler = (request: FastifyRequest) => unknown | Promise<unknown>;

/** Registers `template` in every accepted spelling; the handler's result (or PlaybackError) is the answer. */
export function route(api: FastifyInstance, method: 'GET' | 'POST', template: string, handler: Handler): void {
  for (const url of controlPaths(template)) {
    api.route({
      method,
      url,
      handler: (request: FastifyRequest, reply: FastifyReply) => answer(reply, () => handler(request)),
    });
  }
}

export function param(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string>)[name] ?? '';
}

/** A group of the caller's household, or ERROR_INVALID_OBJECT_ID. */
export function ownGroup(deps: ControlDeps, request: FastifyRequest, groupId: string): Group {
  const group = deps.store.groups.get(groupId);
  if (!group || group.householdId !== request.access?.householdId)
    throw new PlaybackError('ERROR_INVALID_OBJECT_ID', `no group ${groupId} in this household`);
  return group;
}

export function groupPlayer(deps: ControlDeps, request: FastifyRequest, groupId: string): Player {
  ownGroup(deps, request, groupId);
  const player = deps.players.forGroup(groupId);
  if (!player) throw new PlaybackError('ERROR_INVALID_OBJECT_ID', `no player for group ${groupId}`);
  return player;
}

/** The player that holds a session, or the error that says why there is none. */
export function sessionPlayer(deps: ControlDeps, request: FastifyRequest, sessionId: string): Player {
  const player = deps.players.forSession(sessionId);
  if (player) {
    ownGroup(deps, request, player.groupId);
    return player;
  }
  if (deps.players.wasEvicted(sessionId))
    throw new PlaybackError('ERROR_SESSION_EVICTED', `session ${sessionId} was evicted`);
  throw new PlaybackError('ERROR_INVALID_OBJECT_ID', `no session ${sessionId}`);
}
