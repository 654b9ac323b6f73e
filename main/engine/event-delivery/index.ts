/**
 * `event-delivery/`: events to integrations (docs/contract/console.md §3 events; docs/events.md).
 * `subscriptions.ts` keeps who listens to what, `watch.ts` turns the engine's own changes into
 * events, `deliveries.ts` sends them one subscription at a time with their retries, `signature.ts`
 * signs them in the public shape, `transport.ts` is the HTTP client (the failure-injection layer
 * wraps it), `callback-url.ts` says what a callback URL may be. This file builds them for
 * `createEngine`; the control API's subscribe routes live in `control/routes/subscriptions.ts`.
 */
import type { EventSubscriptionView } from '../api/events/deliveries.js';
import type { CommandHandlers } from '../api/runner.js';
import { EngineError } from '../api/errors.js';
import type { EngineClock } from '../clock/clock.js';
import type { EventBus } from '../events/bus.js';
import type { HouseholdViews } from '../household/views.js';
import type { PlayerRegistry } from '../player/registry.js';
import { EventSubscriptionRepository } from '../store/repositories/event-subscriptions.js';
import type { Store } from '../store/store.js';
import type { NewTrafficEntry } from '../traffic/log/index.js';
import { EventDeliveries } from './deliveries.js';
import { groupVolumeOf, householdGroupsOf, metadataStatusOf, playbackStatusOf } from './namespace-bodies.js';
import { EventSubscriptions } from './subscriptions.js';
import type { DeliveryTransport } from './transport.js';
import { EventWatch, type NamespaceReaders } from './watch.js';

export interface EventDeliveryDeps {
  store: Pick<Store, 'db' | 'clientKeys' | 'integrations'>;
  clock: EngineClock;
  bus: EventBus;
  players: PlayerRegistry;
  views: HouseholdViews;
  /** The traffic recorder: every try goes to the traffic log (the recorder sits above this area). */
  recorder: { add(entry: NewTrafficEntry): unknown };
  /**
   * The HTTP client, already wrapped in the failure-injection layer by `createEngine` (as the
   * players' is): faults/ sits above this area and wraps it, so this area never imports faults/.
   */
  transport: DeliveryTransport;
}

export type EventCommandName = 'events.subscriptions' | 'events.deliveries';

export interface EventDelivery {
  readonly subscriptions: EventSubscriptions;
  readonly commands: Pick<CommandHandlers, EventCommandName>;
  /** Once the players took up what they had: what subscribed targets are now is where changes start. */
  start(): void;
  close(): void;
}

export function createEventDelivery(deps: EventDeliveryDeps): EventDelivery {
  const { store, clock, bus, players, views } = deps;
  const repo = new EventSubscriptionRepository(store.db);
  const changed = (integrationId: string, what: 'subscriptions' | 'deliveries') =>
    bus.emit('eventDelivery.changed', { integrationId, what });
  const subscriptions = new EventSubscriptions({
    repo,
    keys: store.clientKeys,
    clock,
    changed: (id) => changed(id, 'subscriptions'),
  });
  const deliveries = new EventDeliveries({
    clock,
    transport: deps.transport,
    target: (keyId) => {
      const key = store.clientKeys.get(keyId);
      return key?.eventCallbackUrl && key.eventSigningSecret
        ? { url: key.eventCallbackUrl, clientId: key.clientId, clientSecret: key.eventSigningSecret }
        : null;
    },
    nextSeqId: (id) => repo.nextSeqId(id),
    onExchange: (entry) => deps.recorder.add(entry),
    changed: (id) => changed(id, 'deliveries'),
  });
  const read: NamespaceReaders = {
    playback: (groupId) => {
      const player = players.forGroup(groupId);
      return player
        ? {
            body: playbackStatusOf(player),
            durationMillis: player.metadata().currentItem?.track.durationMillis ?? null,
          }
        : null;
    },
    playbackMetadata: (groupId) => {
      const player = players.forGroup(groupId);
      return player ? metadataStatusOf(player) : null;
    },
    groupVolume: (groupId) => {
      const player = players.forGroup(groupId);
      return player ? groupVolumeOf(player) : null;
    },
    groups: (householdId) =>
      views.households().some((h) => h.id === householdId) ? householdGroupsOf({ views, players }, householdId) : null,
    groupIds: () => new Set(views.groups().map((g) => g.id)),
  };
  const watch = new EventWatch({
    subscriptions,
    read,
    now: () => clock.now(),
    emit: (subscription, body) => deliveries.enqueue(subscription, body),
  });
  subscriptions.listen({
    added: (subscription) => watch.started(subscription),
    removed: (subscription) => {
      deliveries.forget(subscription.id);
      watch.ended(subscription);
    },
  });

  const offs = [
    // From the registry, not the bus: a player's change is told here without its detail, which
    // the registry builds only for someone who listens to `player.changed`.
    players.onGroupChanged((groupId) => watch.groupChanged(groupId)),
    // After the players followed the household (createEngine listens before this does).
    bus.on('household.changed', () => watch.householdChanged()),
    // A key or an integration deleted takes its subscriptions with it in the store; both say
    // `integrations` (a key's deletion touches its integration). `grants` comes with every token
    // issued, and reading every subscription again then cost each token exchange a store read.
    bus.on('oauth.changed', ({ what }) => {
      if (what === 'integrations') subscriptions.reload();
    }),
  ];

  const view = (subscription: ReturnType<typeof repo.list>[number]): EventSubscriptionView => ({
    ...subscription,
    keyName: store.clientKeys.get(subscription.keyId)?.name ?? '',
    queued: deliveries.queued(subscription.id),
    dropped: deliveries.dropped(subscription.id),
  });
  const integration = (id: string) => {
    if (!store.integrations.get(id)) throw new EngineError('not_found', `no integration ${id}`);
  };

  return {
    subscriptions,
    commands: {
      'events.subscriptions': ({ id }) => {
        integration(id);
        return subscriptions.listByIntegration(id).map(view);
      },
      'events.deliveries': ({ id, limit }) => {
        integration(id);
        return deliveries.list(id, limit);
      },
    },
    start: () => watch.startAll(),
    close: () => {
      for (const off of offs) off();
      deliveries.close();
    },
  };
}
