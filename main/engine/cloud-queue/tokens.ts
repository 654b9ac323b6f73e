/**
 * Who may call a queue (docs/contract/platform.md §5.7, docs/contract/console.md §4): the `Authorization` header must be
 * `Bearer <the queue's access token>`, not expired on the engine clock. Anything else is 401.
 */
import { sameSecret } from '../security/secrets.js';
import type { QueueHead } from '../store/repositories/queues.js';

export type TokenVerdict = { ok: true } | { ok: false; message: string };

export function checkQueueToken(
  head: Pick<QueueHead, 'id' | 'accessToken' | 'tokenExpiresAt'>,
  authorization: string | undefined,
  now: number,
): TokenVerdict {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!presented) return { ok: false, message: 'the request needs Authorization: Bearer <access token of the queue>' };
  if (!sameSecret(presented, head.accessToken))
    return { ok: false, message: `the access token is not valid for queue ${head.id}` };
  if (now >= head.tokenExpiresAt) return { ok: false, message: `the access token of queue ${head.id} expired` };
  return { ok: true };
}
