/**
 * Event subscriptions and deliveries as hosts see them (docs/contract/console.md §3 events, §7
 * event callbacks; docs/events.md): which integration's key listens to what, and every try of
 * every event sent to its callback URL. Pure types, shared with the renderer.
 */
import type { FaultHit } from '../fault-types.js';

/**
 * A namespace as its event headers name it: the control API's path spells the first three with
 * `:1` or without, the fourth is the household's `groups` subscription.
 */
export type SubscriptionNamespace = 'playback' | 'playbackMetadata' | 'groupVolume' | 'groups';

/** What an event's target is: a group, or a household for `groups`. */
export type EventTargetType = 'groupId' | 'householdId';

export interface EventSubscriptionView {
  id: string;
  integrationId: string;
  keyId: string;
  keyName: string;
  householdId: string;
  namespace: SubscriptionNamespace;
  targetType: EventTargetType;
  targetValue: string;
  createdAt: number;
  /** The sequence id of the newest event made for it (0: none yet). */
  lastSeqId: number;
  /** Events waiting, the one being tried included. */
  queued: number;
  /** Events left out since the start because too many were waiting (docs/events.md). */
  dropped: number;
}

/**
 * How one try ended. `delivered`: a 2xx; `retrying`: failed, another try comes at `nextTryAt`;
 * `failed`: the last of the tries failed too, the event is given up; `dropped`: never tried (the
 * queue was full, or the key lost its callback URL or its subscription).
 */
export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed' | 'dropped';

export interface EventDeliveryView {
  /** Unique within the console's run, newest highest. */
  id: number;
  /** One event through all its tries (the traffic log's request id of each try). */
  eventId: string;
  integrationId: string;
  keyId: string;
  subscriptionId: string;
  namespace: SubscriptionNamespace;
  targetValue: string;
  seqId: number;
  url: string | null;
  /** 0 for the first try, 1–3 for the retries. */
  retry: number;
  /** Engine time the try started. */
  at: number;
  status: number | null;
  outcome: DeliveryOutcome;
  /** Why it failed, or why it was dropped. */
  message: string | null;
  latencyMs: number | null;
  fault: FaultHit | null;
  /** Engine time of the next try, when `retrying`. */
  nextTryAt: number | null;
}

/** Events of event deliveries. */
export interface DeliveryEvents {
  /** An integration's subscriptions or deliveries changed: fetch again. */
  'eventDelivery.changed': { integrationId: string; what: 'subscriptions' | 'deliveries' };
}
