/**
 * A `times` rule copied into several fault registries (a fleet's threads) fails as many requests
 * in all as it says, whichever copies meet it, when they take their hits from one shared count.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FaultRule } from '../api/fault-types.js';
import { EngineClock } from '../clock/clock.js';
import { FaultRegistry } from '../faults/registry.js';
import { SharedTimes, timesLeft, type TimesLeft } from './shared-times.js';

type Repo = ConstructorParameters<typeof FaultRegistry>[0]['repo'];
const memoryRepo = { list: () => [], add: () => undefined, save: () => undefined } as unknown as Repo;

const rule: FaultRule = {
  id: 'fault-times',
  target: 'player',
  match: { path: '/timePlayed' },
  action: { type: 'status', status: 503 },
  times: 5,
  hits: 0,
  passes: 0,
  spent: false,
  createdAt: 0,
};

/** One thread's copy: its own registry, the rule's count bound to the shared one. */
function copy(left: TimesLeft | null, times = 5): FaultRegistry {
  const shared = new SharedTimes();
  const registry = new FaultRegistry({
    repo: memoryRepo,
    clock: new EngineClock({ startAt: 0, speed: 0 }),
    bus: { emit: () => undefined },
    takeTime: (id) => shared.take(id),
  });
  registry.putBack([{ ...rule, times }]);
  if (left) shared.bind(rule.id, left);
  return registry;
}

const report = { method: 'POST', path: '/q/timePlayed' };

describe('a times rule shared between threads', () => {
  it('fails its times in all when one copy alone meets it', () => {
    const left = timesLeft(5);
    const [met, idle] = [copy(left), copy(left)];
    const hits = Array.from({ length: 12 }, () => met.decide('player', report)).filter(Boolean).length;
    expect(hits).toBe(5);
    expect(met.get(rule.id)!.spent).toBe(true);
    expect(idle.decide('player', report)).toBeNull();
    expect(idle.get(rule.id)!.spent).toBe(true);
  });

  it('fails exactly its times for any order of requests over any number of copies', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.nat(), { maxLength: 60 }),
        (times, copies, order) => {
          const left = timesLeft(times);
          const registries = Array.from({ length: copies }, () => copy(left, times));
          const hits = order.filter((n) => registries[n % copies]!.decide('player', report) !== null).length;
          expect(hits).toBe(Math.min(times, order.length));
        },
      ),
    );
  });

  it('counts alone a copy with no shared count', () => {
    const alone = copy(null);
    expect(Array.from({ length: 8 }, () => alone.decide('player', report)).filter(Boolean)).toHaveLength(5);
  });
});
