/**
 * Control API errors on the wire (docs/contract/console.md §3): `{"errorCode","reason"}` with the public codes,
 * plus `httpStatus` and `itemId` for ERROR_CLOUD_QUEUE_SERVER. The HTTP status of each code is
 * our choice (the contract names only the body): the status a client library would expect.
 */
import type { FastifyReply } from 'fastify';
import { PlaybackError, type PlaybackErrorCode } from '../player/errors.js';

export const CONTROL_ERROR_STATUS: Record<PlaybackErrorCode, number> = {
  ERROR_INVALID_PARAMETER: 400,
  ERROR_MISSING_PARAMETERS: 400,
  ERROR_INVALID_OBJECT_ID: 404,
  ERROR_DISALLOWED_BY_POLICY: 403,
  ERROR_SKIP_LIMIT_REACHED: 403,
  ERROR_SESSION_EVICTED: 410,
  ERROR_PLAYBACK_NO_CONTENT: 409,
  ERROR_CLOUD_QUEUE_SERVER: 502,
  ERROR_UNSUPPORTED_COMMAND: 404,
};

/** `status`: when the HTTP status says more than the code's own (413 for a body too large). */
export function sendControlError(
  reply: FastifyReply,
  error: PlaybackError,
  status = CONTROL_ERROR_STATUS[error.errorCode],
): FastifyReply {
  const body: Record<string, unknown> = { errorCode: error.errorCode, reason: error.reason };
  if (error.errorCode === 'ERROR_CLOUD_QUEUE_SERVER') {
    // Always both fields (docs/contract/console.md §3): null when there was no answer (a timeout, a reset) or no item named.
    body.httpStatus = error.extra.httpStatus ?? null;
    body.itemId = error.extra.itemId ?? null;
  } else {
    if (error.extra.httpStatus !== undefined) body.httpStatus = error.extra.httpStatus;
    if (error.extra.itemId !== undefined) body.itemId = error.extra.itemId;
  }
  return reply.code(status).send(body);
}

/** Runs a route body; a PlaybackError becomes the contract's error body, anything else stays a 500. */
export async function answer(reply: FastifyReply, work: () => unknown | Promise<unknown>): Promise<FastifyReply> {
  try {
    const result = await work();
    return reply.send(result ?? {});
  } catch (error) {
    if (error instanceof PlaybackError) return sendControlError(reply, error);
    throw error;
  }
}
