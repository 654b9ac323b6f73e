/** Group playback, its status and metadata, and group volume (docs/contract/console.md §3). */
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { UserAction } from '../../player/events.js';
import { groupVolumeOf, metadataStatusOf, playbackStatusOf } from '../../event-delivery/namespace-bodies.js';
import { bodyChecker } from '../params.js';
import { seekRoutes } from './seek.js';
import { groupPlayer, param, route, type ControlDeps } from './context.js';

const checkVolume = bodyChecker(Type.Object({ volume: Type.Integer({ minimum: 0, maximum: 100 }) }));

/** Control commands that act as the user would at the player. */
const COMMANDS: Record<string, (moving: boolean) => UserAction> = {
  play: () => 'play',
  pause: () => 'pause',
  togglePlayPause: (moving) => (moving ? 'pause' : 'play'),
  skipToNextTrack: () => 'skipNext',
  skipToPreviousTrack: () => 'skipPrev',
};

export function playbackRoutes(api: FastifyInstance, deps: ControlDeps): void {
  for (const [name, action] of Object.entries(COMMANDS)) {
    route(api, 'POST', `/groups/:groupId/playback:1/${name}`, async (request) => {
      const player = groupPlayer(deps, request, param(request, 'groupId'));
      const moving = player.machineState === 'PLAYING' || player.machineState === 'BUFFERING';
      await player.act(action(moving), 'command');
      return {};
    });
  }

  seekRoutes(api, '/groups/:groupId/playback:1', (request) => groupPlayer(deps, request, param(request, 'groupId')));

  route(api, 'GET', '/groups/:groupId/playback:1', (request) =>
    playbackStatusOf(groupPlayer(deps, request, param(request, 'groupId'))),
  );

  route(api, 'GET', '/groups/:groupId/playbackMetadata:1', (request) =>
    metadataStatusOf(groupPlayer(deps, request, param(request, 'groupId'))),
  );

  route(api, 'GET', '/groups/:groupId/groupVolume:1', (request) =>
    groupVolumeOf(groupPlayer(deps, request, param(request, 'groupId'))),
  );

  route(api, 'POST', '/groups/:groupId/groupVolume:1', async (request) => {
    const { volume } = await checkVolume(request.body);
    groupPlayer(deps, request, param(request, 'groupId')).setVolume(volume);
    return {};
  });
}
