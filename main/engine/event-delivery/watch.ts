/**
 * What counts as a change worth an event (docs/contract/console.md §3 events): for `playback`, a
 * new playback state, item or queue version, or a jump of the position (a seek, a skip within the
 * track) rather than its steady advance while playing; for `playbackMetadata` and `groupVolume`,
 * any change of the object; for `groups`, a change of the household's groups or players, not of a
 * group's playback state (that is `playback`'s event).
 *
 * The engine tells every change of a player (its group, from the player registry) and of the
 * household (`household.changed`); this reads the namespace's object as its GET answers it,
 * compares it with the one last seen, and hands a changed one to the deliveries. Only targets
 * someone subscribes to are read: without subscriptions this costs a map lookup per change.
 */
import type { SubscriptionNamespace } from '../api/events/deliveries.js';
import type { EventSubscription } from '../store/repositories/event-subscriptions.js';
import { GROUP_NAMESPACES } from './namespaces.js';
import type { EventSubscriptions } from './subscriptions.js';

/**
 * A move of the playhead this far from where steady play would have it is a jump. The position is
 * worked out from the engine clock on both sides, so steady play differs by rounding alone; a
 * quarter second keeps rounding out and a seek of any use in.
 */
export const POSITION_JUMP_MS = 250;

export interface PlaybackBody {
  playbackState: string;
  itemId: string | null;
  positionMillis: number;
  queueVersion: string | null;
}

/** The namespaces' objects as their GETs answer them; null when the target is gone. */
export interface NamespaceReaders {
  playback(groupId: string): { body: PlaybackBody; durationMillis: number | null } | null;
  playbackMetadata(groupId: string): unknown;
  groupVolume(groupId: string): unknown;
  groups(householdId: string): { groups: { id: string; playbackState: string }[]; players: unknown[] } | null;
  /** Every group of the household model now (to end subscriptions of groups that are gone). */
  groupIds(): Set<string>;
}

interface PlaybackSeen {
  body: PlaybackBody;
  at: number;
}

/** What was last seen of one target of one namespace: the object, and what its comparison reads. */
type Seen = { kind: 'playback'; playback: PlaybackSeen } | { kind: 'compare'; key: string };

export interface EventWatchDeps {
  subscriptions: EventSubscriptions;
  read: NamespaceReaders;
  now(): number;
  /** A changed object for every subscription of its target, in the order they were made. */
  emit(subscription: EventSubscription, body: unknown): void;
}

/** Whether playback moved other than by playing on. */
export function playbackChanged(before: PlaybackSeen, after: PlaybackSeen, durationMillis: number | null): boolean {
  const a = before.body;
  const b = after.body;
  if (a.playbackState !== b.playbackState || a.itemId !== b.itemId || a.queueVersion !== b.queueVersion) return true;
  const playing = a.playbackState === 'PLAYBACK_STATE_PLAYING';
  let expected = a.positionMillis + (playing ? after.at - before.at : 0);
  // A track that reached its end stays there until the player moves on.
  if (durationMillis !== null) expected = Math.min(expected, durationMillis);
  return Math.abs(b.positionMillis - expected) > POSITION_JUMP_MS;
}

const seenKey = (namespace: SubscriptionNamespace, targetValue: string) => `${namespace}\n${targetValue}`;

export class EventWatch {
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly deps: EventWatchDeps) {}

  /** A target now has a subscriber: what it is now is the start, not an event. */
  started(subscription: EventSubscription): void {
    const key = seenKey(subscription.namespace, subscription.targetValue);
    if (this.seen.has(key)) return;
    const now = this.read(subscription.namespace, subscription.targetValue);
    if (now) this.seen.set(key, now.seen);
  }

  /** A target may have lost its last subscriber: nothing of it is kept then. */
  ended(subscription: EventSubscription): void {
    if (this.deps.subscriptions.forTarget(subscription.namespace, subscription.targetValue).length === 0) {
      this.seen.delete(seenKey(subscription.namespace, subscription.targetValue));
    }
  }

  /** Takes what every subscribed target is now as its start (after a restart, once players are back). */
  startAll(): void {
    this.seen.clear();
    for (const subscription of this.deps.subscriptions.all()) this.started(subscription);
  }

  groupChanged(groupId: string): void {
    for (const namespace of GROUP_NAMESPACES) this.look(namespace, groupId);
  }

  householdChanged(): void {
    // A group that is gone takes its subscriptions with it: its id is never used again.
    const groups = this.deps.read.groupIds();
    for (const namespace of GROUP_NAMESPACES) {
      for (const groupId of this.deps.subscriptions.targets(namespace))
        if (!groups.has(groupId)) this.deps.subscriptions.removeTarget(namespace, groupId);
    }
    for (const householdId of this.deps.subscriptions.targets('groups')) this.look('groups', householdId);
  }

  private look(namespace: SubscriptionNamespace, targetValue: string): void {
    const subscribers = this.deps.subscriptions.forTarget(namespace, targetValue);
    if (subscribers.length === 0) return;
    const key = seenKey(namespace, targetValue);
    const now = this.read(namespace, targetValue);
    if (!now) return;
    const before = this.seen.get(key);
    if (before && !this.differs(before, now.seen, now.durationMillis)) return;
    this.seen.set(key, now.seen);
    // Not an event for the first look: there is nothing it changed from.
    if (!before) return;
    for (const subscription of [...subscribers]) this.deps.emit(subscription, now.body);
  }

  private differs(before: Seen, after: Seen, durationMillis: number | null): boolean {
    if (before.kind === 'playback' && after.kind === 'playback')
      return playbackChanged(before.playback, after.playback, durationMillis);
    return (
      before.kind !== after.kind || (before.kind === 'compare' && after.kind === 'compare' && before.key !== after.key)
    );
  }

  private read(
    namespace: SubscriptionNamespace,
    targetValue: string,
  ): { seen: Seen; body: unknown; durationMillis: number | null } | null {
    const { read } = this.deps;
    switch (namespace) {
      case 'playback': {
        const playback = read.playback(targetValue);
        return (
          playback && {
            seen: { kind: 'playback', playback: { body: playback.body, at: this.deps.now() } },
            body: playback.body,
            durationMillis: playback.durationMillis,
          }
        );
      }
      case 'playbackMetadata':
      case 'groupVolume': {
        const body = read[namespace](targetValue);
        return body === null
          ? null
          : { seen: { kind: 'compare', key: JSON.stringify(body) }, body, durationMillis: null };
      }
      case 'groups': {
        const body = read.groups(targetValue);
        if (!body) return null;
        // The groups' playback states are left out of the comparison: playback events tell them.
        const shape = {
          groups: body.groups.map(({ playbackState: _playing, ...group }) => group),
          players: body.players,
        };
        return { seen: { kind: 'compare', key: JSON.stringify(shape) }, body, durationMillis: null };
      }
    }
  }
}
