/**
 * A DDSketch as plain data, to cross from a worker thread to the fleet's main thread and merge
 * there. The library's own `toProto` needs protobufjs (not a dependency here) and loses the min
 * and max; this keeps the bins exactly (a key and its count), so a merged sketch answers the
 * same quantiles as one sketch that saw every value.
 */
import type { DDSketch } from '@datadog/sketches-js';
import { newSketch } from './metrics.js';

interface StoreData {
  minKey: number;
  /** Counts of the keys minKey, minKey + 1, … */
  counts: number[];
}

export interface SketchData {
  count: number;
  zeroCount: number;
  min: number;
  max: number;
  sum: number;
  positive: StoreData;
  negative: StoreData;
}

type Store = DDSketch['store'];

function storeData(store: Store): StoreData {
  if (store.count === 0) return { minKey: 0, counts: [] };
  const counts: number[] = [];
  for (let key = store.minKey; key <= store.maxKey; key++) counts.push(store.bins[key - store.offset] ?? 0);
  return { minKey: store.minKey, counts };
}

function fill(store: Store, data: StoreData): void {
  data.counts.forEach((count, i) => {
    if (count > 0) store.add(data.minKey + i, count);
  });
}

export function sketchData(sketch: DDSketch): SketchData {
  return {
    count: sketch.count,
    zeroCount: sketch.zeroCount,
    min: sketch.min,
    max: sketch.max,
    sum: sketch.sum,
    positive: storeData(sketch.store),
    negative: storeData(sketch.negativeStore),
  };
}

/** The sketch again, bins, count, min, max and sum as they were. */
export function sketchOf(data: SketchData): DDSketch {
  const sketch = newSketch();
  fill(sketch.store, data.positive);
  fill(sketch.negativeStore, data.negative);
  sketch.zeroCount = data.zeroCount;
  sketch.count = data.count;
  sketch.min = data.min;
  sketch.max = data.max;
  sketch.sum = data.sum;
  return sketch;
}
