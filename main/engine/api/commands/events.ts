/**
 * Commands of event deliveries (docs/contract/console.md §3 events; docs/events.md): an
 * integration's subscriptions and its newest delivery tries, for the OAuth area and scripts. The
 * callback URL itself is a key's (`integrations.keys.update`).
 */
import Type from 'typebox';
import { command } from '../command.js';
import type { EventDeliveryView, EventSubscriptionView } from '../events/deliveries.js';

export const eventCommands = {
  'events.subscriptions': command<EventSubscriptionView[]>()({
    summary:
      "An integration's event subscriptions: namespace, target, the newest sequence id, and what waits to be delivered.",
    input: Type.Object({ id: Type.String({ minLength: 1 }) }),
    http: { method: 'GET', path: '/integrations/:id/subscriptions' },
  }),
  'events.deliveries': command<EventDeliveryView[]>()({
    summary: "An integration's newest event delivery tries, newest first: status, retry number, and why a try failed.",
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
    }),
    http: { method: 'GET', path: '/integrations/:id/deliveries' },
  }),
};
