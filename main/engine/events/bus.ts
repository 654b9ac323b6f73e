/**
 * The engine's event bus: typed by the event table, every event numbered so that hosts can order
 * what they receive. Listeners that throw are isolated from each other and from the emitter.
 * `wants` tells an emitter whether anyone listens, so an event whose data costs work to build
 * (every captured exchange's summary) is built only for someone.
 */
import type { EngineEvent, EngineEvents, EventName } from '../api/events.js';

export type EventListener = (event: EngineEvent) => void;

export class EventBus {
  private readonly listeners = new Set<EventListener>();
  /** Listeners to every event (`subscribe`), and to one name (`on`), by name. */
  private toEvery = 0;
  private readonly toName = new Map<EventName, number>();
  /** Of the listeners to every event, those that left a name out (`subscribe`'s `omit`), by name. */
  private readonly omitting = new Map<EventName, number>();
  private seq = 0;

  emit<N extends EventName>(name: N, data: EngineEvents[N]): void {
    const event = { name, seq: ++this.seq, data } as EngineEvent;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error(`event listener failed on ${name}`, error);
      }
    }
  }

  /** Whether an event of this name would reach a listener now. */
  wants(name: EventName): boolean {
    return this.toEvery - (this.omitting.get(name) ?? 0) > 0 || (this.toName.get(name) ?? 0) > 0;
  }

  /**
   * Listens to every event, but those named in `omit`. A subscription with `omit` is a
   * subscription of its own: the same listener subscribed twice that way hears every event twice.
   */
  subscribe(listener: EventListener, omit: readonly EventName[] = []): () => void {
    if (omit.length === 0) return this.add(listener, null);
    const left = new Set(omit);
    const unsubscribe = this.add((event) => {
      if (!left.has(event.name)) listener(event);
    }, null);
    for (const name of left) this.omitting.set(name, (this.omitting.get(name) ?? 0) + 1);
    return () => {
      if (!unsubscribe()) return;
      for (const name of left) {
        const n = this.omitting.get(name)! - 1;
        // Names come from a query string too: none outlives its subscription.
        if (n === 0) this.omitting.delete(name);
        else this.omitting.set(name, n);
      }
    };
  }

  /** Listens to one event name only. */
  on<N extends EventName>(name: N, listener: (data: EngineEvents[N]) => void): () => void {
    return this.add((event) => {
      if (event.name === name) listener(event.data as EngineEvents[N]);
    }, name);
  }

  clear(): void {
    this.listeners.clear();
    this.toEvery = 0;
    this.toName.clear();
    this.omitting.clear();
  }

  /** Its unsubscribe answers whether the listener was still there. */
  private add(listener: EventListener, name: EventName | null): () => boolean {
    // A listener added twice is there once, and counted once.
    if (!this.listeners.has(listener)) this.count(name, 1);
    this.listeners.add(listener);
    return () => {
      const removed = this.listeners.delete(listener);
      if (removed) this.count(name, -1);
      return removed;
    };
  }

  private count(name: EventName | null, by: number): void {
    if (name === null) this.toEvery += by;
    else this.toName.set(name, (this.toName.get(name) ?? 0) + by);
  }
}
