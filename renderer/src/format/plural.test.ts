import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('a count and its noun', () => {
  it('says one in the singular and every other count in the plural, grouped', () => {
    // The import notice's "1 notes on what will not replay" reads "1 note" now.
    expect(plural(1, 'note')).toBe('1 note');
    expect(plural(0, 'note')).toBe('0 notes');
    expect(plural(2, 'note')).toBe('2 notes');
    expect(plural(100_000, 'item')).toBe('100,000 items');
  });
});
