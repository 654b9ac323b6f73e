/**
 * What an injected fault does at one of the console's own servers (login, control, cloud queue):
 * answer with a status (with Retry-After / X-Rejected-Reason), never answer, reset the
 * connection, answer late, or answer 200 with a body that is not JSON.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FaultAction, FaultTarget } from '../api/fault-types.js';
import type { TrafficOutcome, TrafficTarget } from '../api/traffic-types.js';
import type { EngineClock } from '../clock/clock.js';
import { cloudQueueError, errorStatusHeaders } from '../cloud-queue/errors.js';
import { NO_STORE } from '../http/no-store.js';

/**
 * Answers an injected status for a target: a reply it sent, `'route'` to let the route answer
 * with the injected status in hand (see `injectedStatusOf`), or undefined for the default body.
 */
export type StatusResponder = (
  target: FaultTarget,
  request: FastifyRequest,
  reply: FastifyReply,
  action: Extract<FaultAction, { type: 'status' }>,
) => FastifyReply | 'route' | undefined;

const injectedStatuses = new WeakMap<FastifyRequest, number>();

/** The status failure injection handed to this request's route, if any. */
export function injectedStatusOf(request: FastifyRequest): number | null {
  return injectedStatuses.get(request) ?? null;
}

/**
 * Headers every injected answer at a target carries: the login service's are never cached, like
 * all its own answers (the token endpoint's must not be, RFC 6749 §5.1).
 */
export function injectedAnswerHeaders(target: TrafficTarget): Readonly<Record<string, string>> | undefined {
  return target === 'login' ? NO_STORE : undefined;
}

/**
 * The login service's authorization endpoint answers an injected 500/503 itself: as a redirect
 * with `server_error` / `temporarily_unavailable` (RFC 6749 §4.1.2.1), only to a registered URI.
 */
export const loginAuthorizeResponder =
  (authorizePath: string): StatusResponder =>
  (target, request, _reply, action) => {
    if (
      target !== 'login' ||
      request.method !== 'GET' ||
      request.url.split('?')[0] !== authorizePath ||
      action.status < 500
    )
      return undefined;
    injectedStatuses.set(request, action.status);
    return 'route';
  };

/** The headers an injected status carries: those of the cloud queue server's own error statuses. */
export function injectedStatusHeaders(action: Extract<FaultAction, { type: 'status' }>): Record<string, string> {
  return errorStatusHeaders(action.status, action);
}

export const MALFORMED_BODY = '{"injected": "malformed", "items": [';

interface FaultContext {
  clock: EngineClock;
  target: TrafficTarget;
  respondStatus?: StatusResponder;
  /** Records the exchange of a request that fastify will never answer. */
  ended: (outcome: TrafficOutcome) => void;
}

export async function applyServerFault(
  request: FastifyRequest,
  reply: FastifyReply,
  action: FaultAction,
  context: FaultContext,
): Promise<unknown> {
  const requestId = request.headers['x-request-id'];
  // A player waiting on this request must not hold the engine clock still (see EngineClock.release).
  const release = () => typeof requestId === 'string' && context.clock.release(requestId);
  const answerHeaders = injectedAnswerHeaders(context.target);
  if (answerHeaders) reply.headers(answerHeaders);
  switch (action.type) {
    case 'status': {
      reply.headers(injectedStatusHeaders(action));
      const answered = context.respondStatus?.(context.target as FaultTarget, request, reply, action);
      if (answered === 'route') return undefined;
      if (answered) return answered;
      return reply.code(action.status).send(action.body ?? defaultBody(context.target, action.status));
    }
    case 'malformed':
      return reply.code(200).type('application/json; charset=utf-8').send(MALFORMED_BODY);
    case 'latency':
      release();
      await new Promise<void>((resolve) => context.clock.setTimeout(resolve, action.ms, 'injected latency'));
      return undefined;
    case 'timeout':
      release();
      reply.hijack();
      request.raw.socket.once('close', () => context.ended('timeout'));
      return reply;
    case 'drop':
      context.ended('dropped');
      reply.hijack();
      // A TCP RST, as a connection that breaks mid-request: the client sees ECONNRESET.
      request.raw.socket.resetAndDestroy();
      return reply;
  }
}

function defaultBody(target: TrafficTarget, status: number): unknown {
  const message = `injected fault: ${status}`;
  if (target === 'cloudQueue')
    return cloudQueueError(status, status === 503 ? 'serviceUnavailable' : 'injected', message);
  if (target === 'login')
    return { error: status === 503 ? 'temporarily_unavailable' : 'server_error', error_description: message };
  return { errorCode: 'ERROR_INJECTED_FAULT', reason: message };
}
