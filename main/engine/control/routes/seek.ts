/**
 * seek and seekRelative (docs/contract/console.md §3), the same two commands at group level
 * (`playback:1`) and at session level (`playbackSession:1`). The body is read before the group or
 * session is looked up, as every other command does; the player checks the rest (what plays, its
 * canSeek, the itemId) and clamps.
 *
 * The public service also takes an optional `itemId` on seekRelative, and answers an itemId that is
 * not the playing item with ERROR_INVALID_OBJECT_ID; the contract names ERROR_INVALID_PARAMETER for
 * it, which is what is answered here (docs/player.md, "Seek").
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { Player } from '../../player/player.js';
import { bodyChecker } from '../params.js';
import { route } from './context.js';

const ItemId = Type.Optional(Type.String({ minLength: 1 }));
const checkSeek = bodyChecker(Type.Object({ positionMillis: Type.Integer({ minimum: 0 }), itemId: ItemId }));
const checkSeekRelative = bodyChecker(Type.Object({ deltaMillis: Type.Integer(), itemId: ItemId }));

/** `namespace`: the path of the namespace the two commands hang under, `:1` and all. */
export function seekRoutes(
  api: FastifyInstance,
  namespace: string,
  playerOf: (request: FastifyRequest) => Player,
): void {
  route(api, 'POST', `${namespace}/seek`, async (request) => {
    const { positionMillis, itemId } = await checkSeek(request.body);
    playerOf(request).seek(itemId === undefined ? { positionMillis } : { positionMillis, itemId });
    return {};
  });

  route(api, 'POST', `${namespace}/seekRelative`, async (request) => {
    const { deltaMillis, itemId } = await checkSeekRelative(request.body);
    playerOf(request).seek(itemId === undefined ? { deltaMillis } : { deltaMillis, itemId });
    return {};
  });
}
