import { describe, expect, it } from 'vitest';
import { keptTabIndex } from './kept-list';

describe('a kept list', () => {
  it('has one Tab stop: the chosen row, else the first', () => {
    const items = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect(items.map((_, i) => keptTabIndex(items, 'b', i))).toEqual([-1, 0, -1]);
    expect(items.map((_, i) => keptTabIndex(items, null, i))).toEqual([0, -1, -1]);
    expect(items.map((_, i) => keptTabIndex(items, 'gone', i))).toEqual([0, -1, -1]);
  });
});
