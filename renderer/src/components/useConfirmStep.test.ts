import { describe, expect, it } from 'vitest';
import { confirmPress } from './useConfirmStep';

describe('a destructive button’s second step', () => {
  it('arms on the first press', () => {
    expect(confirmPress(null, 10_000)).toBe('arm');
  });

  it('ignores a second press within 400 ms: a held key repeats, a double click is one decision', () => {
    expect(confirmPress(10_000, 10_000)).toBe('ignore');
    expect(confirmPress(10_000, 10_399)).toBe('ignore');
  });

  it('acts on a second press after that, within the 4 s window', () => {
    expect(confirmPress(10_000, 10_400)).toBe('act');
    expect(confirmPress(10_000, 13_999)).toBe('act');
  });

  it('arms again once the window has passed, even if the timer that disarms it has not run', () => {
    expect(confirmPress(10_000, 14_000)).toBe('arm');
  });
});
