import { describe, expect, it } from 'vitest';
import { dropIndex, placeText, stepIndex } from './rule-order';

describe('the matching order', () => {
  it('moves a rule one step, and not past either end', () => {
    expect(stepIndex(1, 'up', 3)).toBe(0);
    expect(stepIndex(1, 'down', 3)).toBe(2);
    expect(stepIndex(0, 'up', 3)).toBeNull();
    expect(stepIndex(2, 'down', 3)).toBeNull();
  });
  it('drops a dragged rule in the place of the row it is dropped on', () => {
    expect(dropIndex(3, 0)).toBe(0);
    expect(dropIndex(0, 2)).toBe(2);
    expect(dropIndex(1, 1)).toBeNull();
  });
  it('says a place as people count', () => expect(placeText(0, 2)).toBe('1 of 2'));
});
