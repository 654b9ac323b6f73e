/**
 * The engine's event bus: typed by the event table, every event numbered so that hosts can order
 * what they receive. Listeners that throw are isolated from each other and from the emitter.
 * `wants` tells an emitter whether anyone listens, so an event whose data costs work to build
 * (every captured exchange's summary) is built only for someone.
 */
import type { EngineEvent, EngineEvents, EventName } from '../api/events.js';

export type EventListener = (event: EngineEvent) => void;

/** Which event names a listener takes. */
type Interest = (name: EventName) => boolean;
const EVERY_EVENT: Interest = () => true;

export class EventBus {
  /** A listener added twice is there once, with the interest it was added with last. */
  private readonly listeners = new Map<EventListener, Interest>();
  private seq = 0;

  emit<N extends EventName>(name: N, data: EngineEvents[N]): void {
    const event = { name, seq: ++this.seq, data } as EngineEvent;
    for (const [listener, interest] of this.listeners) {
      if (!interest(name)) continue;
      try {
        listener(event);
      } catch (error) {
        console.error(`event listener failed on ${name}`, error);
      }
    }
  }

  /** Whether an event of this name would reach a listener now. */
  wants(name: EventName): boolean {
    for (const interest of this.listeners.values()) if (interest(name)) return true;
    return false;
  }

  /** Listens to every event, but those named in `omit`. */
  subscribe(listener: EventListener, omit: readonly EventName[] = []): () => void {
    const left = new Set(omit);
    return this.add(listener, left.size === 0 ? EVERY_EVENT : (name) => !left.has(name));
  }

  /** Listens to one event name only. */
  on<N extends EventName>(name: N, listener: (data: EngineEvents[N]) => void): () => void {
    return this.add(
      (event) => listener(event.data as EngineEvents[N]),
      (each) => each === name,
    );
  }

  clear(): void {
    this.listeners.clear();
  }

  private add(listener: EventListener, interest: Interest): () => void {
    this.listeners.set(listener, interest);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
