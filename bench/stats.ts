import { SeededRandom } from '../main/engine/faults/random.js';

/** What the benchmarks print with: the median of runs (one disturbed run does not move it), numbers. */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * How far a statistic could move on this machine: a percentile bootstrap. The samples (pairs of
 * slices, so that each keeps its own neighbour) are drawn with replacement `rounds` times and the
 * statistic is worked out on each draw; the result is the range holding the middle `level` of
 * those values. A verdict against a target belongs to the whole range, not just to its middle.
 * Seeded, so the same numbers print the same range.
 */
export function bootstrapInterval<T>(
  samples: readonly T[],
  statistic: (draw: readonly T[]) => number,
  { level = 0.9, rounds = 2_000, seed = 1 } = {},
): [number, number] {
  if (samples.length === 0) throw new Error('bootstrapInterval needs at least one sample');
  const random = new SeededRandom(seed);
  const values: number[] = [];
  const draw: T[] = new Array(samples.length);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < samples.length; i++) draw[i] = samples[Math.floor(random.next() * samples.length)]!;
    values.push(statistic(draw));
  }
  values.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return [values[Math.floor(tail * (rounds - 1))]!, values[Math.ceil((1 - tail) * (rounds - 1))]!];
}

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
