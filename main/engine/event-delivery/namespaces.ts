/**
 * The namespaces one can subscribe to (docs/contract/console.md §3 subscriptions) and how their
 * events name themselves in the public shape's headers (docs/events.md): the namespace without its
 * `:1`, the type of object the body is, and what the target id is an id of.
 */
import type { EventTargetType, SubscriptionNamespace } from '../api/events/deliveries.js';

export interface NamespaceSpec {
  namespace: SubscriptionNamespace;
  /** `X-Sonos-Type`: the object type the body is (the namespace's GET answer). */
  type: string;
  targetType: EventTargetType;
}

export const NAMESPACES: Readonly<Record<SubscriptionNamespace, NamespaceSpec>> = {
  playback: { namespace: 'playback', type: 'playbackStatus', targetType: 'groupId' },
  playbackMetadata: { namespace: 'playbackMetadata', type: 'metadataStatus', targetType: 'groupId' },
  groupVolume: { namespace: 'groupVolume', type: 'groupVolume', targetType: 'groupId' },
  groups: { namespace: 'groups', type: 'groups', targetType: 'householdId' },
};

/** The namespaces of a group, in the order a change of one group is looked at. */
export const GROUP_NAMESPACES = [
  'playback',
  'playbackMetadata',
  'groupVolume',
] as const satisfies readonly SubscriptionNamespace[];
export type GroupNamespace = (typeof GROUP_NAMESPACES)[number];
