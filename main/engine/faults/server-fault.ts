/**
 * What an injected fault does at one of the console's own servers (login, control, cloud queue):
 * answer with a status (with Retry-After / X-Rejected-Reason), never answer, reset the
 * connection, answer late, or answer 200 with a body that is not JSON.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FaultAction, FaultTarget } from '../api/fault-types.js';
import type { TrafficOutcome, TrafficTarget } from '../api/traffic-types.js';
import type { EngineClock } from '../clock/clock.js';
import { cloudQueueError } from '../cloud-queue/errors.js';

/** Answers an injected status for a target, or returns undefined to use the default body. */
export type StatusResponder = (target: FaultTarget, request: FastifyRequest, reply: FastifyReply, action: Extract<FaultAction, { type: 'status' }>) => FastifyReply | undefined;

export const MALFORMED_BODY = '{"injected": "malformed", "items": [';

interface FaultContext {
  clock: EngineClock;
  target: TrafficTarget;
  respondStatus?: StatusResponder;
  /** Records the exchange of a request that fastify will never answer. */
  ended: (outcome: TrafficOutcome) => void;
}

export async function applyServerFault(request: FastifyRequest, reply: FastifyReply, action: FaultAction, context: FaultContext): Promise<unknown> {
  const requestId = request.headers['x-request-id'];
  // A player waiting on this request must not hold the engine clock still (see EngineClock.release).
  const release = () => typeof requestId === 'string' && context.clock.release(requestId);
  switch (action.type) {
    case 'status': {
      if (action.retryAfter !== undefined) reply.header('retry-after', String(action.retryAfter));
      if (action.rejectedReason !== undefined) reply.header('x-rejected-reason', action.rejectedReason);
      const answered = context.respondStatus?.(context.target as FaultTarget, request, reply, action);
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
      request.raw.socket.destroy();
      return reply;
  }
}

function defaultBody(target: TrafficTarget, status: number): unknown {
  const message = `injected fault: ${status}`;
  if (target === 'cloudQueue') return cloudQueueError(status, status === 503 ? 'serviceUnavailable' : 'injected', message);
  if (target === 'login') return { error: status === 503 ? 'temporarily_unavailable' : 'server_error', error_description: message };
  return { errorCode: 'ERROR_INJECTED_FAULT', reason: message };
}
