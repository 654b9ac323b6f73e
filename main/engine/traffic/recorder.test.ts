/** The recorder's batching: when buffered exchanges reach the log and its listeners. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TrafficSummary } from '../api/traffic-types.js';
import { EventBus } from '../events/bus.js';
import { openStore } from '../store/store.js';
import { trafficEntry } from '../testing/traffic.js';
import { FLUSH_AT, TrafficRecorder } from './recorder.js';

afterEach(() => {
  vi.useRealTimers();
});

function recorder() {
  const store = openStore({ dataDir: null });
  const bus = new EventBus();
  const batches: TrafficSummary[][] = [];
  bus.on('traffic.captured', (batch) => batches.push(batch));
  return { store, batches, recorder: new TrafficRecorder({ repo: store.traffic, settings: store.settings, bus }) };
}

const count = (store: ReturnType<typeof openStore>) => store.traffic.page({}, 0, 1).total;

describe('the traffic recorder', () => {
  it('writes a full batch at once, without waiting for its timer, so buffered entries die young', () => {
    vi.useFakeTimers();
    const { store, batches, recorder: traffic } = recorder();
    for (let i = 0; i < FLUSH_AT - 1; i++) traffic.add(trafficEntry({ at: i }));
    expect(count(store)).toBe(0);
    traffic.add(trafficEntry({ at: FLUSH_AT - 1 }));
    expect(count(store)).toBe(FLUSH_AT);
    expect(batches.map((batch) => batch.length)).toEqual([FLUSH_AT]);
    expect(batches[0]!.map((summary) => summary.at)).toEqual(Array.from({ length: FLUSH_AT }, (_, i) => i));
  });

  it('writes a part batch once its timer runs out', () => {
    vi.useFakeTimers();
    const { store, batches, recorder: traffic } = recorder();
    traffic.add(trafficEntry());
    traffic.add(trafficEntry());
    vi.advanceTimersByTime(99);
    expect(count(store)).toBe(0);
    vi.advanceTimersByTime(1);
    expect(count(store)).toBe(2);
    expect(batches.map((batch) => batch.length)).toEqual([2]);
  });
});
