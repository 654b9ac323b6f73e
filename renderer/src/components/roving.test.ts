import { describe, expect, it } from 'vitest';
import { rovingTabIndex, rovingTarget } from './roving';

describe('arrow keys in a row of tabs or radios', () => {
  it('move to the neighbour, round the ends', () => {
    expect(rovingTarget('ArrowRight', 0, 3)).toBe(1);
    expect(rovingTarget('ArrowDown', 2, 3)).toBe(0);
    expect(rovingTarget('ArrowLeft', 0, 3)).toBe(2);
    expect(rovingTarget('ArrowUp', 1, 3)).toBe(0);
  });

  it('jump to the ends with Home and End, and leave every other key alone', () => {
    expect(rovingTarget('Home', 2, 3)).toBe(0);
    expect(rovingTarget('End', 0, 3)).toBe(2);
    expect(rovingTarget('Enter', 1, 3)).toBeNull();
    expect(rovingTarget('ArrowRight', 0, 0)).toBeNull();
  });

  it('leave one Tab stop: the chosen item, or the first when none is', () => {
    expect([true, false, false].map((chosen, i) => rovingTabIndex(chosen, i === 0, true))).toEqual([0, -1, -1]);
    expect([false, false].map((chosen, i) => rovingTabIndex(chosen, i === 0, false))).toEqual([0, -1]);
  });
});
