/**
 * The engine's event bus: typed by the event table, every event numbered so that hosts can order
 * what they receive. Listeners that throw are isolated from each other and from the emitter.
 */
import type { EngineEvent, EngineEvents, EventName } from '../api/events.js';

export type EventListener = (event: EngineEvent) => void;

export class EventBus {
  private readonly listeners = new Set<EventListener>();
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

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Listens to one event name only. */
  on<N extends EventName>(name: N, listener: (data: EngineEvents[N]) => void): () => void {
    return this.subscribe((event) => {
      if (event.name === name) listener(event.data as EngineEvents[N]);
    });
  }

  clear(): void {
    this.listeners.clear();
  }
}
