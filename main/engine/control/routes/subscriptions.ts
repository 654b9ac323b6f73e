/**
 * Event subscriptions at the control API (docs/contract/console.md §3 subscriptions; docs/events.md):
 * `POST` subscribes the key the caller's token was issued to, `DELETE` ends it; both answer `{}`
 * and neither is an error when it changes nothing. A group or household that is not the caller's
 * is ERROR_INVALID_OBJECT_ID; a key without an event callback URL is refused with 403, as the
 * public service refuses it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SubscriptionNamespace } from '../../api/events/deliveries.js';
import { GROUP_NAMESPACES } from '../../event-delivery/namespaces.js';
import { SubscriptionRefused, type EventSubscriptions } from '../../event-delivery/subscriptions.js';
import { PlaybackError } from '../../player/errors.js';
import { answer } from '../errors.js';
import { controlPaths } from '../paths.js';
import { ownGroup, param, type ControlDeps } from './context.js';

declare module '../app.js' {
  interface ControlAppOptions {
    /** Event subscriptions; without them the subscribe paths are not served. */
    subscriptions?: EventSubscriptions;
  }
}

type Target = (request: FastifyRequest) => { householdId: string; targetValue: string };

export function subscriptionRoutes(
  api: FastifyInstance,
  deps: ControlDeps & { subscriptions?: EventSubscriptions },
): void {
  const { subscriptions } = deps;
  if (!subscriptions) return;
  const serve = (template: string, namespace: SubscriptionNamespace, target: Target) => {
    for (const url of controlPaths(template)) {
      api.route({
        method: ['POST', 'DELETE'],
        url,
        handler: (request: FastifyRequest, reply: FastifyReply) =>
          refusedOr(reply, () => {
            const { householdId, targetValue } = target(request);
            const clientId = request.access!.clientId;
            if (request.method === 'POST') subscriptions.subscribe(clientId, householdId, namespace, targetValue);
            else subscriptions.unsubscribe(clientId, namespace, targetValue);
            return {};
          }),
      });
    }
  };

  for (const namespace of GROUP_NAMESPACES) {
    serve(`/groups/:groupId/${namespace}:1/subscription`, namespace, (request) => {
      const group = ownGroup(deps, request, param(request, 'groupId'));
      return { householdId: group.householdId, targetValue: group.id };
    });
  }
  serve('/households/:householdId/groups/subscription', 'groups', (request) => {
    const householdId = param(request, 'householdId');
    if (householdId !== request.access?.householdId)
      throw new PlaybackError('ERROR_INVALID_OBJECT_ID', `no household ${householdId}`);
    return { householdId, targetValue: householdId };
  });
}

/** The route's answer, or the refusal's status and `{"errorCode","reason"}`. */
async function refusedOr(reply: FastifyReply, work: () => unknown): Promise<FastifyReply> {
  try {
    return await answer(reply, work);
  } catch (error) {
    if (error instanceof SubscriptionRefused)
      return reply.code(error.status).send({ errorCode: error.errorCode, reason: error.reason });
    throw error;
  }
}
