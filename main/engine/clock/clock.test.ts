import { describe, expect, it, vi } from 'vitest';
import { ManualWall } from '../testing/manual-wall.js';
import { EngineClock } from './clock.js';

const START = 1_800_000_000_000;

function clockAt(speed = 1) {
  const wall = new ManualWall(START);
  const clock = new EngineClock({ wall, startAt: START, speed });
  return { wall, clock };
}

describe('EngineClock', () => {
  it('runs at real time at speed 1 and n times faster at speed n', () => {
    const { wall, clock } = clockAt(1);
    wall.tick(1_000);
    expect(clock.now()).toBe(START + 1_000);
    clock.setSpeed(60);
    wall.tick(1_000);
    expect(clock.now()).toBe(START + 1_000 + 60_000);
  });

  it('stands still at speed 0', () => {
    const { wall, clock } = clockAt(0);
    wall.tick(3_600_000);
    expect(clock.now()).toBe(START);
    expect(clock.state()).toEqual({ now: START, speed: 0 });
  });

  it('fires timers when real time reaches them, scaled by speed', () => {
    const { wall, clock } = clockAt(10);
    const fired = vi.fn();
    clock.setTimeout(fired, 10_000);
    wall.tick(999);
    expect(fired).not.toHaveBeenCalled();
    wall.tick(1);
    expect(fired).toHaveBeenCalledOnce();
  });

  it('reschedules pending timers when the speed changes', () => {
    const { wall, clock } = clockAt(1);
    const fired = vi.fn();
    clock.setTimeout(fired, 60_000);
    wall.tick(30_000);
    clock.setSpeed(0);
    wall.tick(600_000);
    expect(fired).not.toHaveBeenCalled();
    clock.setSpeed(30);
    wall.tick(999);
    expect(fired).not.toHaveBeenCalled();
    wall.tick(1);
    expect(fired).toHaveBeenCalledOnce();
  });

  it('never runs a timer whose delay is not a number, and keeps running the others', async () => {
    const { clock } = clockAt(0);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push('nan'), Number.NaN);
    clock.setTimeout(() => seen.push('one'), 1_000);
    await clock.advance(5_000);
    expect(seen).toEqual(['one']);
    expect(clock.now()).toBe(START + 5_000);
  });

  it('advance moves time by exactly the amount and runs due timers in due order, each at its own time', async () => {
    const { clock } = clockAt(0);
    const seen: [string, number][] = [];
    clock.setTimeout(() => seen.push(['c', clock.now()]), 3_000);
    clock.setTimeout(() => seen.push(['a', clock.now()]), 1_000);
    clock.setTimeout(() => seen.push(['b', clock.now()]), 2_000);
    clock.setTimeout(() => seen.push(['late', clock.now()]), 10_000);
    await clock.advance(5_000);
    expect(seen).toEqual([
      ['a', START + 1_000],
      ['b', START + 2_000],
      ['c', START + 3_000],
    ]);
    expect(clock.now()).toBe(START + 5_000);
    expect(clock.pendingTimers).toBe(1);
  });

  it('keeps the order timers were set in when they fall due together', async () => {
    const { clock } = clockAt(0);
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) clock.setTimeout(() => seen.push(i), 1_000);
    await clock.advance(1_000);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it('runs timers that due timers set, when they fall inside the jump', async () => {
    const { clock } = clockAt(0);
    const ticks: number[] = [];
    const every10s = (): void => {
      ticks.push(clock.now() - START);
      clock.setTimeout(every10s, 10_000);
    };
    clock.setTimeout(every10s, 10_000);
    await clock.advance(60_000);
    expect(ticks).toEqual([10_000, 20_000, 30_000, 40_000, 50_000, 60_000]);
  });

  it('waits for tracked work before moving on, so asynchronous effects happen at the right time', async () => {
    const { clock } = clockAt(0);
    const seen: number[] = [];
    clock.setTimeout(() => {
      // A timer starts a request; its answer schedules the next step 2 s later.
      const request = new Promise<void>((resolve) => setTimeout(resolve, 20));
      void clock.track(request).then(() => clock.setTimeout(() => seen.push(clock.now() - START), 2_000));
    }, 1_000);
    await clock.advance(5_000);
    expect(seen).toEqual([3_000]);
  });

  it('stops waiting for tracked work that never settles', async () => {
    const wall = new ManualWall(START);
    const clock = new EngineClock({ wall, startAt: START, speed: 0, settleTimeoutMs: 30 });
    clock.setTimeout(() => void clock.track(new Promise(() => undefined)), 1_000);
    await clock.advance(2_000);
    expect(clock.now()).toBe(START + 2_000);
  });

  it('cancels timers', async () => {
    const { clock } = clockAt(0);
    const fired = vi.fn();
    const timer = clock.setTimeout(fired, 1_000);
    clock.clearTimeout(timer);
    await clock.advance(5_000);
    expect(fired).not.toHaveBeenCalled();
  });

  it('serialises concurrent advances', async () => {
    const { clock } = clockAt(0);
    await Promise.all([clock.advance(1_000), clock.advance(2_000), clock.advance(3_000)]);
    expect(clock.now()).toBe(START + 6_000);
  });

  it('keeps running after a timer throws', async () => {
    const onTimerError = vi.fn();
    const clock = new EngineClock({ wall: new ManualWall(START), startAt: START, speed: 0, onTimerError });
    const after = vi.fn();
    clock.setTimeout(
      () => {
        throw new Error('boom');
      },
      1_000,
      'exploding',
    );
    clock.setTimeout(after, 2_000);
    await clock.advance(3_000);
    expect(onTimerError).toHaveBeenCalledWith(expect.any(Error), 'exploding');
    expect(after).toHaveBeenCalledOnce();
  });

  it('tells listeners about speed changes and jumps', async () => {
    const { clock } = clockAt(1);
    const states: unknown[] = [];
    clock.onChange((state) => states.push(state));
    clock.setSpeed(0);
    await clock.advance(60_000);
    expect(states).toEqual([
      { now: START, speed: 0 },
      { now: START + 60_000, speed: 0 },
    ]);
  });

  it('refuses negative speeds and durations', () => {
    const { clock } = clockAt(1);
    expect(() => clock.setSpeed(-1)).toThrow(RangeError);
    expect(() => clock.advance(-5)).toThrow(RangeError);
  });

  it('continues at the jumped-to time when running after an advance', async () => {
    const { wall, clock } = clockAt(1);
    await clock.advance(3_600_000);
    wall.tick(1_000);
    expect(clock.now()).toBe(START + 3_600_000 + 1_000);
  });
});

describe('EngineClock.release', () => {
  it('stops waiting for released work, whether released before or after it was tracked', async () => {
    const clock = new EngineClock({ wall: new ManualWall(START), startAt: START, speed: 0, settleTimeoutMs: 60_000 });
    clock.release('early');
    clock.setTimeout(() => {
      void clock.track(new Promise(() => undefined), 'early');
      void clock.track(new Promise(() => undefined), 'late');
      clock.release('late');
    }, 1_000);
    const started = Date.now();
    await clock.advance(2_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(clock.now()).toBe(START + 2_000);
  });
});
