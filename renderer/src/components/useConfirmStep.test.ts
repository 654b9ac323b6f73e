import { describe, expect, it } from 'vitest';
import { confirmPress, confirmPressFor } from './useConfirmStep';

describe('a destructive button’s second step', () => {
  it('arms on the first press', () => {
    expect(confirmPress(null, 10_000)).toBe('arm');
  });

  it('ignores a second press within 250 ms: a double click is one decision', () => {
    expect(confirmPress(10_000, 10_000)).toBe('ignore');
    expect(confirmPress(10_000, 10_249)).toBe('ignore');
  });

  it('acts on a second press after that, within the 4 s window: a deliberate click at 0.3 s too (audit)', () => {
    expect(confirmPress(10_000, 10_250)).toBe('act');
    expect(confirmPress(10_000, 10_300)).toBe('act');
    expect(confirmPress(10_000, 13_999)).toBe('act');
  });

  it('arms again once the window has passed, even if the timer that disarms it has not run', () => {
    expect(confirmPress(10_000, 14_000)).toBe('arm');
  });
});

describe('a keyed second step', () => {
  it('acts only on a second press for the key it armed', () => {
    expect(confirmPressFor({ key: 'item-1 item-2', at: 10_000 }, 'item-1 item-2', 10_500)).toBe('act');
  });

  it('arms again for another key: moving to other rows, or choosing another file, starts over', () => {
    expect(confirmPressFor({ key: 'item-1', at: 10_000 }, 'item-2', 10_500)).toBe('arm');
    expect(confirmPressFor(null, 'item-2', 10_500)).toBe('arm');
  });

  it('keeps the timing of the plain step for its own key', () => {
    expect(confirmPressFor({ key: 'a', at: 10_000 }, 'a', 10_100)).toBe('ignore');
    expect(confirmPressFor({ key: 'a', at: 10_000 }, 'a', 14_000)).toBe('arm');
  });
});
