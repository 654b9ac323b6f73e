import { describe, expect, it } from 'vitest';
import { DEMO_DISMISSED_KEY, isFirstRun } from './demo';

const storage = (items: Record<string, string>) => ({ getItem: (key: string) => items[key] ?? null });

describe('the guided demo’s first run', () => {
  it('is a first run until the demo was closed once in this browser', () => {
    expect(isFirstRun(storage({}))).toBe(true);
    expect(isFirstRun(storage({ [DEMO_DISMISSED_KEY]: '1' }))).toBe(false);
  });

  it('is not when storage is refused: the demo would open on every load', () => {
    expect(
      isFirstRun({
        getItem: () => {
          throw new Error('denied');
        },
      }),
    ).toBe(false);
  });
});
