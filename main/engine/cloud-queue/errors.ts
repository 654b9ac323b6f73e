/**
 * The cloud queue server's errors on the wire (docs/contract/platform.md §7.1, docs/contract/console.md §4), shaped like the
 * platform's own: `{"error":{"code","message","errors":[{"domain","reason","message"}]}}`, with
 * `Retry-After` on 503, `X-Rejected-Reason` on 403 when given, `WWW-Authenticate` on 401.
 * Failure injection answers through the same helper, so an injected error looks like a real one.
 */
import type { FastifyReply } from 'fastify';
import { STATUS_CODES } from 'node:http';

export interface CloudQueueErrorBody {
  error: {
    code: number;
    message: string;
    errors: { domain: string; reason: string; message: string }[];
  };
}

/** The `reason` each status carries unless the caller names a more precise one. */
export const CLOUD_QUEUE_ERROR_REASONS: Readonly<Record<number, string>> = {
  400: 'badRequest',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'notFound',
  413: 'requestTooLarge',
  500: 'internalError',
  503: 'serviceUnavailable',
};

/** Seconds a 503 asks the player to wait when nobody said (inside the seed's 2–10 s clamp). */
export const DEFAULT_RETRY_AFTER_SEC = 5;

export function cloudQueueError(code: number, reason: string, message: string): CloudQueueErrorBody {
  return { error: { code, message, errors: [{ domain: 'cloudQueue', reason, message }] } };
}

export interface CloudQueueErrorOptions {
  reason?: string;
  message?: string;
  /** Seconds for Retry-After (503; default DEFAULT_RETRY_AFTER_SEC). */
  retryAfter?: number;
  /** X-Rejected-Reason, for logging (403), e.g. STREAM_RATE_LIMIT_REACHED. */
  rejectedReason?: string;
}

/**
 * The headers an error status carries (docs/contract/console.md §4): a 503 always has Retry-After
 * (DEFAULT_RETRY_AFTER_SEC unless given), and X-Rejected-Reason when there is one. Failure
 * injection sends the same for its statuses.
 */
export function errorStatusHeaders(
  status: number,
  { retryAfter, rejectedReason }: Pick<CloudQueueErrorOptions, 'retryAfter' | 'rejectedReason'>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const wait = retryAfter ?? (status === 503 ? DEFAULT_RETRY_AFTER_SEC : undefined);
  if (wait !== undefined) headers['retry-after'] = String(wait);
  if (rejectedReason !== undefined) headers['x-rejected-reason'] = rejectedReason;
  return headers;
}

export function sendCloudQueueError(
  reply: FastifyReply,
  status: number,
  options: CloudQueueErrorOptions = {},
): FastifyReply {
  const reason = options.reason ?? CLOUD_QUEUE_ERROR_REASONS[status] ?? 'error';
  const message = options.message ?? STATUS_CODES[status] ?? 'error';
  reply.headers(errorStatusHeaders(status, options));
  if (status === 401) reply.header('www-authenticate', 'Bearer realm="cloudQueue", error="invalid_token"');
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(cloudQueueError(status, reason, message));
}
