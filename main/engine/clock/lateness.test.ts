/**
 * How far the engine's timeline may have fallen behind one whose clock stood still: busy time at
 * the speed it passed at, and timers fired late (clock/lateness.ts).
 */
import { describe, expect, it } from 'vitest';
import { ManualWall } from '../testing/manual-wall.js';
import { EngineClock } from './clock.js';
import { ClockLateness } from './lateness.js';

describe('the lateness of a running clock', () => {
  it('turns busy wall time into engine time at the speed it passed at', () => {
    const clock = new EngineClock({ wall: new ManualWall(), speed: 20 });
    let busy = 1_000;
    const lateness = new ClockLateness(clock, () => busy);
    expect(lateness.total()).toBe(0);
    busy += 40;
    expect(lateness.total()).toBe(800);
    // Busy time before a change of speed counts at the old speed, after it at the new one.
    busy += 10;
    clock.setSpeed(0);
    busy += 500;
    expect(lateness.total()).toBe(1_000);
    clock.setSpeed(1);
    busy += 5;
    expect(lateness.total()).toBe(1_005);
    lateness.close();
    clock.close();
  });

  it('adds what timers fired after they fell due, once a wake', () => {
    // A wall whose timers wake only when the test says: a busy event loop wakes them late.
    let wallNow = 0;
    const wakes: Array<() => void> = [];
    const wall = {
      now: () => wallNow,
      setTimeout: (callback: () => void) => wakes.push(callback),
      clearTimeout: () => undefined,
    };
    const clock = new EngineClock({ wall, startAt: 0, speed: 20 });
    const lateness = new ClockLateness(clock, () => 0);
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(clock.now()), 1_000);
    clock.setTimeout(() => fired.push(clock.now()), 1_010);
    // The real timer wakes 3 ms of wall time after the first fell due: 60 ms late at speed 20.
    wallNow = 53;
    wakes.at(-1)!();
    expect(fired).toEqual([1_060, 1_060]);
    expect(clock.firedLateMs).toBe(60);
    expect(lateness.total()).toBe(60);
    lateness.close();
    clock.close();
  });

  it('counts no lateness for a clock that only advances', async () => {
    const clock = new EngineClock({ wall: new ManualWall(), startAt: 0, speed: 0 });
    const lateness = new ClockLateness(clock, () => 0);
    let fired = 0;
    clock.setTimeout(() => fired++, 1_000);
    await clock.advance(5_000);
    expect(fired).toBe(1);
    expect(lateness.total()).toBe(0);
    lateness.close();
    clock.close();
  });
});
