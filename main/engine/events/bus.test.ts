import { describe, expect, it } from 'vitest';
import { EventBus } from './bus.js';

describe('the event bus', () => {
  it('wants an event while a listener to it or to every event is there, and no longer once they go', () => {
    const bus = new EventBus();
    expect(bus.wants('traffic.captured')).toBe(false);
    const offOther = bus.on('traffic.reset', () => undefined);
    expect(bus.wants('traffic.captured')).toBe(false);
    expect(bus.wants('traffic.reset')).toBe(true);
    const offNamed = bus.on('traffic.captured', () => undefined);
    expect(bus.wants('traffic.captured')).toBe(true);
    offNamed();
    offNamed();
    expect(bus.wants('traffic.captured')).toBe(false);
    const listener = () => undefined;
    const offEvery = bus.subscribe(listener);
    const offAgain = bus.subscribe(listener);
    expect(bus.wants('traffic.captured')).toBe(true);
    offEvery();
    expect(bus.wants('traffic.captured')).toBe(false);
    offAgain();
    expect(bus.wants('traffic.captured')).toBe(false);
    offOther();
    expect(bus.wants('traffic.reset')).toBe(false);
  });

  it('leaves out of a subscription the events it omits, and does not want them for it', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    const off = bus.subscribe((event) => seen.push(event.name), ['traffic.captured']);
    expect(bus.wants('traffic.captured')).toBe(false);
    expect(bus.wants('traffic.appended')).toBe(true);
    bus.emit('traffic.captured', []);
    bus.emit('traffic.appended', { count: 1, lastId: 1, dropped: 0 });
    expect(seen).toEqual(['traffic.appended']);
    // Anyone else who takes every event still gets it.
    const offAll = bus.subscribe(() => undefined);
    expect(bus.wants('traffic.captured')).toBe(true);
    offAll();
    off();
    off();
    expect(bus.wants('traffic.appended')).toBe(false);
    const offNamed = bus.on('traffic.captured', () => undefined);
    expect(bus.wants('traffic.captured')).toBe(true);
    offNamed();
    expect(bus.wants('traffic.captured')).toBe(false);
  });

  it('numbers events in order and keeps a throwing listener from the others', () => {
    const bus = new EventBus();
    const seen: number[] = [];
    bus.subscribe(() => {
      throw new Error('listener bug');
    });
    bus.subscribe((event) => seen.push(event.seq));
    const error = console.error;
    console.error = () => undefined;
    try {
      bus.emit('traffic.reset', { reason: 'cleared' });
      bus.emit('traffic.reset', { reason: 'retention' });
    } finally {
      console.error = error;
    }
    expect(seen).toEqual([1, 2]);
  });
});
