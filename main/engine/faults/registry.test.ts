import { describe, expect, it, vi } from 'vitest';
import { EngineClock } from '../clock/clock.js';
import { EventBus } from '../events/bus.js';
import { openStore, type Store } from '../store/store.js';
import { ManualWall } from '../testing/manual-wall.js';
import { FaultRegistry, HIT_PUSH_MS } from './registry.js';

const version = { method: 'GET', path: '/queues/q/v2.3/version' };

function registry(store: Store = openStore({ dataDir: null })) {
  const bus = new EventBus();
  const events: unknown[] = [];
  bus.on('faults.changed', (rules) => events.push(rules));
  return {
    faults: new FaultRegistry({
      repo: store.faultRules,
      clock: new EngineClock({ wall: new ManualWall(), speed: 0 }),
      bus,
    }),
    events,
    store,
  };
}

describe('fault rule scope', () => {
  it('times: fails the next N matching requests, then is spent but stays listed', () => {
    const { faults } = registry();
    faults.add({
      target: 'cloudQueue',
      match: { path: '/version' },
      action: { type: 'status', status: 503 },
      times: 2,
    });
    expect([1, 2, 3].map(() => faults.decide('cloudQueue', version)?.hit.status ?? null)).toEqual([503, 503, null]);
    expect(faults.list()[0]).toMatchObject({ hits: 2, spent: true });
  });

  it('refuses a reason no player sends, which would match nothing while it looked live (outsider)', () => {
    const { faults } = registry();
    const refuse = (reason: string) => () =>
      faults.add({ target: 'cloudQueue', match: { reason }, action: { type: 'status', status: 503 } });
    expect(refuse('refesh')).toThrow(/match\.reason "refesh" is no reason a player sends: one of load, pause, play/);
    expect(refuse('banana')).toThrow(/invalid|no reason/);
    expect(faults.list()).toEqual([]);
    for (const reason of ['refresh', 'skipToItem', 'load+queueCompleted']) expect(refuse(reason)).not.toThrow();
    expect(faults.list()).toHaveLength(3);
  });

  it('keeps only a rule\u2019s own fields: anything else a caller sent is neither stored nor echoed', () => {
    const { faults } = registry();
    const input = {
      target: 'control',
      match: { path: '/households', extra: 1 },
      action: { type: 'drop', ms: 5 },
      times: 1,
      extra: true,
    };
    const rule = faults.add(input as unknown as Parameters<typeof faults.add>[0]);
    expect(rule).toEqual({
      id: rule.id,
      target: 'control',
      match: { path: '/households' },
      action: { type: 'drop' },
      times: 1,
      hits: 0,
      passes: 0,
      spent: false,
      createdAt: rule.createdAt,
    });
    expect(faults.list()).toEqual([rule]);
  });

  it('a rule the store refuses is not live, and nobody hears of it', () => {
    const { faults, events, store } = registry();
    store.close();
    expect(() =>
      faults.add({ target: 'cloudQueue', match: { path: '/version' }, action: { type: 'status', status: 503 } }),
    ).toThrow();
    expect(faults.list()).toEqual([]);
    expect(faults.decide('cloudQueue', version)).toBeNull();
    expect(events).toEqual([]);
  });

  it('until removed: fails every matching request', () => {
    const { faults } = registry();
    const rule = faults.add({ target: 'cloudQueue', action: { type: 'drop' } });
    for (let i = 0; i < 50; i++) expect(faults.decide('cloudQueue', version)).not.toBeNull();
    faults.remove(rule.id);
    expect(faults.decide('cloudQueue', version)).toBeNull();
  });

  it('probability with a seed: the same requests fail in every run, and the share is about right', () => {
    const run = () => {
      const { faults } = registry();
      faults.add({ target: 'player', action: { type: 'status', status: 500 }, probability: 0.3, seed: 1234 });
      return Array.from({ length: 1_000 }, () => (faults.decide('player', version) ? 1 : 0));
    };
    const first = run();
    expect(run()).toEqual(first);
    const share = first.reduce<number>((a, b) => a + b, 0) / first.length;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
  });

  it('probability and times together: N hits drawn with the probability', () => {
    const { faults } = registry();
    faults.add({ target: 'player', action: { type: 'timeout' }, probability: 0.5, seed: 9, times: 3 });
    const outcomes = Array.from({ length: 40 }, () => faults.decide('player', version) !== null);
    expect(outcomes.filter(Boolean)).toHaveLength(3);
    expect(faults.list()[0]).toMatchObject({ hits: 3, spent: true });
  });

  it('only the target and match of a rule: the first matching rule wins', () => {
    const { faults } = registry();
    faults.add({ target: 'cloudQueue', match: { reason: 'refresh' }, action: { type: 'status', status: 500 } });
    faults.add({ target: 'cloudQueue', match: { path: '/itemWindow' }, action: { type: 'status', status: 404 } });
    expect(faults.decide('player', { method: 'GET', path: '/x/itemWindow', reason: 'refresh' })).toBeNull();
    expect(faults.decide('cloudQueue', { method: 'GET', path: '/x/itemWindow', reason: 'refresh' })?.hit.status).toBe(
      500,
    );
    expect(faults.decide('cloudQueue', { method: 'GET', path: '/x/itemWindow', reason: 'load' })?.hit.status).toBe(404);
    expect(faults.decide('cloudQueue', version)).toBeNull();
  });

  it('survives a restart with its counts, and a seeded rule continues its sequence', () => {
    const store = openStore({ dataDir: null });
    const first = registry(store).faults;
    first.add({ target: 'player', action: { type: 'drop' }, probability: 0.5, seed: 77 });
    const before = Array.from({ length: 10 }, () => first.decide('player', version) !== null);
    const reference = registry().faults;
    reference.add({ target: 'player', action: { type: 'drop' }, probability: 0.5, seed: 77 });
    const all = Array.from({ length: 20 }, () => reference.decide('player', version) !== null);
    const second = registry(store).faults;
    expect(second.list()[0]).toMatchObject({ hits: before.filter(Boolean).length });
    const after = Array.from({ length: 10 }, () => second.decide('player', version) !== null);
    expect([...before, ...after]).toEqual(all);
  });

  it('tells hosts about every change at once, and hits together, at most every HIT_PUSH_MS', () => {
    vi.useFakeTimers();
    try {
      const { faults, events, store } = registry();
      const rule = faults.add({ target: 'control', action: { type: 'status', status: 500 } });
      expect(events).toHaveLength(1);
      // A storm's thousand hits: one push, every hit in it, and every hit stored as it happened.
      for (let i = 0; i < 1_000; i++) faults.decide('control', version);
      expect(events).toHaveLength(1);
      expect(store.faultRules.list()[0]!.hits).toBe(1_000);
      vi.advanceTimersByTime(HIT_PUSH_MS);
      expect(events).toHaveLength(2);
      expect((events[1] as { hits: number }[])[0]!.hits).toBe(1_000);
      // A rule spent is told at once, and a user's change takes the waiting hits with it.
      const once = faults.add({ target: 'login', action: { type: 'status', status: 500 }, times: 1 });
      faults.decide('login', version);
      expect((events.at(-1) as { id: string; spent: boolean }[]).find((r) => r.id === once.id)!.spent).toBe(true);
      faults.decide('control', version);
      faults.remove(rule.id);
      const pushed = events.length;
      vi.advanceTimersByTime(HIT_PUSH_MS * 2);
      expect(events).toHaveLength(pushed);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the order of the rules, and the rules it shadows', () => {
  const window404 = {
    target: 'cloudQueue',
    match: { method: 'GET', path: '/itemWindow' },
    action: { type: 'status', status: 404 },
    times: 1,
    label: '404 on itemWindow',
  } as const;
  const storm = {
    target: 'cloudQueue',
    match: {},
    action: { type: 'status', status: 503, retryAfter: 3 },
    label: '503 storm',
  } as const;
  const refresh = { method: 'GET', path: '/queues/q/v2.3/itemWindow', reason: 'refresh' };

  it('a rule added under a live storm on its target is shadowed, and does not fire; moved first, it fires', () => {
    const { faults, events } = registry();
    const first = faults.add(storm);
    const second = faults.add(window404);
    expect(faults.views()[1]).toMatchObject({
      id: second.id,
      shadowedBy: { id: first.id, label: '503 storm' },
      shadow: 'full',
      warning: expect.stringContaining('never fires'),
    });
    expect(faults.views()[0]).toMatchObject({ shadowedBy: null, shadow: null, warning: null });
    expect(faults.decide('cloudQueue', refresh)?.rule.id).toBe(first.id);
    expect(faults.get(second.id)!.hits).toBe(0);

    expect(faults.move(second.id, 0)).toBe(true);
    expect(faults.views().map((r) => r.id)).toEqual([second.id, first.id]);
    expect(faults.views()[0]!.shadowedBy).toBeNull();
    // The storm now waits behind a rule with one hit left for the itemWindow requests.
    expect(faults.views()[1]).toMatchObject({
      shadowedBy: null,
      shadow: 'delayed',
      warning: expect.stringContaining('next 1 request both match'),
    });
    expect(faults.decide('cloudQueue', refresh)?.hit.status).toBe(404);
    expect(faults.decide('cloudQueue', refresh)?.hit.status).toBe(503);
    // Hosts hear of the new order, each rule with its shadow (then of the 404 rule spent; the
    // storm's hit waits for the next push).
    expect((events.at(-2) as { id: string; shadow: unknown }[]).map((r) => r.id)).toEqual([second.id, first.id]);
  });

  it('keeps the order across a restart, and moves past the end to the end', () => {
    const store = openStore({ dataDir: null });
    const faults = registry(store).faults;
    const [a, b, c] = ['a', 'b', 'c'].map((label) => faults.add({ target: 'player', action: { type: 'drop' }, label }));
    faults.move(c!.id, 0);
    faults.move(a!.id, 99);
    expect(faults.list().map((r) => r.label)).toEqual(['c', 'b', 'a']);
    expect(
      registry(store)
        .faults.list()
        .map((r) => r.label),
    ).toEqual(['c', 'b', 'a']);
    // A rule added later still goes last.
    faults.add({ target: 'player', action: { type: 'drop' }, label: 'd' });
    expect(
      registry(store)
        .faults.list()
        .map((r) => r.label),
    ).toEqual(['c', 'b', 'a', 'd']);
    expect(faults.move('fault-nope', 0)).toBe(false);
    expect(b).toBeDefined();
  });

  it('says nothing of a shadow it is not sure of: a times rule delays, a probability rule lets some through', () => {
    const { faults } = registry();
    faults.add({ ...storm, times: 2 });
    faults.add({
      target: 'cloudQueue',
      match: { path: '/version' },
      action: { type: 'drop' },
      probability: 0.5,
      seed: 1,
    });
    faults.add(window404);
    faults.add({ target: 'cloudQueue', match: { path: '/version' }, action: { type: 'status', status: 500 } });
    const [, , delayed, behindProbability] = faults.views();
    expect(delayed).toMatchObject({
      shadowedBy: null,
      shadow: 'delayed',
      warning: expect.stringContaining('next 2 requests'),
    });
    expect(behindProbability).toMatchObject({ shadowedBy: null, shadow: 'delayed' });
  });

  it('puts back a scenario\u2019s rules without their views\u2019 fields', () => {
    const { faults, store } = registry();
    faults.add(storm);
    const views = faults.views();
    faults.clear();
    faults.putBack(views);
    expect(Object.keys(store.faultRules.list()[0]!)).not.toContain('shadowedBy');
  });
});
