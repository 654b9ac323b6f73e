/**
 * Who listens to what (docs/contract/console.md §3 subscriptions): a subscription belongs to the
 * client key the caller's access token was issued to, and is kept in the store, so it outlives a
 * restart. Every player change asks which subscriptions a target has, so they are also indexed in
 * memory by namespace and target; the index is read again whenever keys or integrations change (a
 * deleted key takes its subscriptions with it in the store).
 *
 * Like the public service, subscribing is refused (403) for a key without an event callback URL:
 * there would be nowhere to send the events.
 */
import type { SubscriptionNamespace } from '../api/events/deliveries.js';
import type { EngineClock } from '../clock/clock.js';
import { newId } from '../security/random.js';
import type { ClientKey, ClientKeyRepository } from '../store/repositories/client-keys.js';
import type { EventSubscription, EventSubscriptionRepository } from '../store/repositories/event-subscriptions.js';
import { NAMESPACES } from './namespaces.js';

/** Why a subscribe was refused: answered as the control API's error with this HTTP status. */
export class SubscriptionRefused extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'SubscriptionRefused';
  }
}

export interface SubscriptionListener {
  added(subscription: EventSubscription): void;
  removed(subscription: EventSubscription): void;
}

export interface EventSubscriptionsDeps {
  repo: EventSubscriptionRepository;
  keys: Pick<ClientKeyRepository, 'findByClientId'>;
  clock: Pick<EngineClock, 'now'>;
  changed(integrationId: string): void;
}

const targetKey = (namespace: SubscriptionNamespace, targetValue: string) => `${namespace}\n${targetValue}`;

export class EventSubscriptions {
  private byTarget = new Map<string, EventSubscription[]>();
  private listener: SubscriptionListener | null = null;

  constructor(private readonly deps: EventSubscriptionsDeps) {
    this.reload();
  }

  /** Told of every subscription that starts or ends (the change watch and the delivery lines). */
  listen(listener: SubscriptionListener): void {
    this.listener = listener;
  }

  /**
   * Subscribes the caller's key (by the token's client id) to a target of its household; a second
   * subscribe to the same is a no-op. The caller has checked that the target is the household's.
   */
  subscribe(
    clientId: string,
    householdId: string,
    namespace: SubscriptionNamespace,
    targetValue: string,
  ): EventSubscription {
    const key = this.keyOf(clientId);
    if (key.eventCallbackUrl === null) {
      throw new SubscriptionRefused(
        403,
        'ERROR_NOT_AUTHORIZED',
        `key "${key.name}" has no event callback URL: set one in the integration manager, then subscribe`,
      );
    }
    const existing = this.deps.repo.find(key.id, namespace, targetValue);
    if (existing) return existing;
    const now = Math.floor(this.deps.clock.now());
    const created = this.deps.repo.create({
      id: newId('sub', now),
      keyId: key.id,
      householdId,
      namespace,
      targetType: NAMESPACES[namespace].targetType,
      targetValue,
      createdAt: now,
    });
    this.index(created);
    this.listener?.added(created);
    this.deps.changed(created.integrationId);
    return created;
  }

  /** Ends the caller's subscription; ending one that is not there is not an error. */
  unsubscribe(clientId: string, namespace: SubscriptionNamespace, targetValue: string): void {
    const key = this.keyOf(clientId);
    const existing = this.deps.repo.find(key.id, namespace, targetValue);
    if (existing) this.remove(existing);
  }

  /** The subscriptions of one target, in the order they were made. */
  forTarget(namespace: SubscriptionNamespace, targetValue: string): readonly EventSubscription[] {
    return this.byTarget.get(targetKey(namespace, targetValue)) ?? [];
  }

  /** The targets anyone subscribes to in a namespace. */
  targets(namespace: SubscriptionNamespace): string[] {
    return [...this.byTarget.values()]
      .filter((list) => list[0]?.namespace === namespace)
      .map((list) => list[0]!.targetValue);
  }

  all(): EventSubscription[] {
    return [...this.byTarget.values()].flat();
  }

  listByIntegration(integrationId: string): EventSubscription[] {
    return this.deps.repo.listByIntegration(integrationId);
  }

  /** Ends every subscription of a target (its group is gone). */
  removeTarget(namespace: SubscriptionNamespace, targetValue: string): void {
    for (const subscription of [...this.forTarget(namespace, targetValue)]) this.remove(subscription);
  }

  /** Reads the store again: keys or integrations were deleted, and their subscriptions with them. */
  reload(): void {
    const before = this.all();
    this.byTarget = new Map();
    for (const subscription of this.deps.repo.list()) this.index(subscription);
    const now = new Set(this.all().map((s) => s.id));
    for (const gone of before.filter((s) => !now.has(s.id))) {
      this.listener?.removed(gone);
      this.deps.changed(gone.integrationId);
    }
  }

  private remove(subscription: EventSubscription): void {
    this.deps.repo.delete(subscription.id);
    const key = targetKey(subscription.namespace, subscription.targetValue);
    const left = (this.byTarget.get(key) ?? []).filter((s) => s.id !== subscription.id);
    if (left.length > 0) this.byTarget.set(key, left);
    else this.byTarget.delete(key);
    this.listener?.removed(subscription);
    this.deps.changed(subscription.integrationId);
  }

  private index(subscription: EventSubscription): void {
    const key = targetKey(subscription.namespace, subscription.targetValue);
    this.byTarget.set(key, [...(this.byTarget.get(key) ?? []), subscription]);
  }

  private keyOf(clientId: string): ClientKey {
    const key = this.deps.keys.findByClientId(clientId);
    // A token outlives no key (deleting a key revokes what it issued): this is a race at most.
    if (!key) throw new SubscriptionRefused(401, 'ERROR_NOT_AUTHORIZED', 'the key this token was issued to is gone');
    return key;
  }
}
