/**
 * Playback sessions and the cloud queue commands (docs/contract/console.md §3, docs/contract/platform.md §7.3): loadCloudQueue answers
 * after the player's first GET /itemWindow; skipToItem and refreshCloudQueue answer at once.
 */
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { PlaybackError } from '../../player/errors.js';
import { HeaderValue } from '../../api/commands/shared.js';
import { bodyChecker } from '../params.js';
import { seekRoutes } from './seek.js';
import { groupPlayer, param, route, sessionPlayer, type ControlDeps } from './context.js';

const HttpUrl = Type.String({ pattern: '^https?://' });
const Track = Type.Object({
  mediaUrl: Type.String({ minLength: 1 }),
  durationMillis: Type.Optional(Type.Number({ minimum: 0 })),
});

const checkSession = bodyChecker(
  Type.Object({
    appId: Type.String({ minLength: 1 }),
    appContext: Type.String(),
    customData: Type.Optional(Type.Unknown()),
  }),
);
const checkLoad = bodyChecker(
  Type.Object({
    queueBaseUrl: HttpUrl,
    // Sent verbatim as a header (docs/contract/console.md §5): a value a header can carry.
    httpAuthorization: Type.Optional(HeaderValue()),
    itemId: Type.Optional(Type.String({ minLength: 1 })),
    queueVersion: Type.Optional(Type.String()),
    positionMillis: Type.Optional(Type.Integer({ minimum: 0 })),
    playOnCompletion: Type.Optional(Type.Boolean()),
    trackMetadata: Type.Optional(Track),
  }),
);
const checkSkip = bodyChecker(
  Type.Object({
    itemId: Type.String({ minLength: 1 }),
    queueVersion: Type.Optional(Type.String()),
    positionMillis: Type.Optional(Type.Integer({ minimum: 0 })),
    playOnCompletion: Type.Optional(Type.Boolean()),
    trackMetadata: Type.Optional(Track),
  }),
);

export function sessionRoutes(api: FastifyInstance, deps: ControlDeps): void {
  const sessionAnswer = (sessionId: string, created: boolean) => ({
    sessionId,
    sessionState: 'SESSION_STATE_CONNECTED',
    sessionCreated: created,
  });

  route(api, 'POST', '/groups/:groupId/playbackSession:1', async (request) => {
    const body = await checkSession(request.body);
    const player = groupPlayer(deps, request, param(request, 'groupId'));
    return sessionAnswer(player.createSession(body.appId, body.appContext, body.customData).id, true);
  });

  route(api, 'POST', '/groups/:groupId/playbackSession:1/joinOrCreate', async (request) => {
    const body = await checkSession(request.body);
    const player = groupPlayer(deps, request, param(request, 'groupId'));
    const { session, created } = player.joinOrCreateSession(body.appId, body.appContext, body.customData);
    return sessionAnswer(session.id, created);
  });

  route(api, 'POST', '/playbackSessions/:sessionId/playbackSession:1/loadCloudQueue', async (request) => {
    const body = await checkLoad(request.body);
    // The pattern only says it starts like one: "http://" or "http://[" must not reach the player.
    if (!URL.canParse(body.queueBaseUrl))
      throw new PlaybackError('ERROR_INVALID_PARAMETER', 'queueBaseUrl: must be an absolute http(s) URL');
    await sessionPlayer(deps, request, param(request, 'sessionId')).load(body);
    return {};
  });

  route(api, 'POST', '/playbackSessions/:sessionId/playbackSession:1/skipToItem', async (request) => {
    const body = await checkSkip(request.body);
    sessionPlayer(deps, request, param(request, 'sessionId')).skipToItem(body);
    return {};
  });

  route(api, 'POST', '/playbackSessions/:sessionId/playbackSession:1/refreshCloudQueue', (request) => {
    sessionPlayer(deps, request, param(request, 'sessionId')).refresh();
    return {};
  });

  route(api, 'POST', '/playbackSessions/:sessionId/playbackSession:1/suspend', (request) => {
    sessionPlayer(deps, request, param(request, 'sessionId')).suspend();
    return {};
  });

  seekRoutes(api, '/playbackSessions/:sessionId/playbackSession:1', (request) =>
    sessionPlayer(deps, request, param(request, 'sessionId')),
  );
}
