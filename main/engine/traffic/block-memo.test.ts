import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockMemo } from './block-memo.js';

/** The same text as a new string, as capture makes every block. */
const anew = (text: string) => [...text].join('');

describe('BlockMemo', () => {
  it('finds a block by its text, not by the string it was set with', () => {
    const memo = new BlockMemo<number>(8, 100);
    memo.set('Host: a\r\nX-Request-Id: 1\r\n', 1);
    expect(memo.get(anew('Host: a\r\nX-Request-Id: 1\r\n'))).toBe(1);
    expect(memo.get('Host: a\r\nX-Request-Id: 2\r\n')).toBeUndefined();
  });

  it('never answers for another text in the same slot, and still finds a text whose slot another took', () => {
    // The same length and the same characters where the fingerprint reads (0, 5, 10 … 40): one slot.
    const first = 'x'.repeat(41);
    const second = `xy${'x'.repeat(39)}`;
    const memo = new BlockMemo<string>(16, 100);
    memo.set(first, 'one');
    expect(memo.get(second)).toBeUndefined();
    memo.set(second, 'two');
    expect(memo.get(second)).toBe('two');
    expect(memo.get(anew(first))).toBe('one');
    expect(memo.get(second)).toBe('two');
  });

  it('without a Map behind, holds each text in its slot only', () => {
    const first = 'x'.repeat(41);
    const second = `xy${'x'.repeat(39)}`;
    const memo = new BlockMemo<string>(16, 100, false);
    memo.set(first, 'one');
    expect(memo.get(anew(first))).toBe('one');
    memo.set(second, 'two');
    expect(memo.get(second)).toBe('two');
    expect(memo.get(first)).toBeUndefined();
  });

  it('holds as many texts as it has slots, then starts again', () => {
    const memo = new BlockMemo<number>(4, 100);
    for (let i = 0; i < 4; i++) memo.set(`block ${i}`, i);
    for (let i = 0; i < 4; i++) expect(memo.get(anew(`block ${i}`))).toBe(i);
    // A fifth: the texts behind the slots are let go, the ones in their slots stay findable.
    memo.set('block 4', 4);
    expect(memo.get('block 4')).toBe(4);
    const found = [0, 1, 2, 3].filter((i) => memo.get(`block ${i}`) === i);
    expect(found.length).toBeLessThan(4);
  });

  it('holds nothing longer than its limit, and nothing once cleared', () => {
    const memo = new BlockMemo<number>(4, 5);
    memo.set('123456', 1);
    expect(memo.get('123456')).toBeUndefined();
    memo.set('', 2);
    memo.set('12345', 3);
    expect(memo.get('')).toBe(2);
    expect(memo.get('12345')).toBe(3);
    memo.clear();
    expect(memo.get('')).toBeUndefined();
    expect(memo.get('12345')).toBeUndefined();
  });

  it('takes only a power of two slots', () => {
    expect(() => new BlockMemo(3, 10)).toThrow(/power of two/);
  });

  it('answers, for any sequence of blocks, only what was last set for that very text', () => {
    // Blocks that differ in one character anywhere (a Date, an id), few enough to meet again.
    const block = fc
      .tuple(fc.constantFrom('GET', 'POST'), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 9 }))
      .map(([method, at, digit]) => {
        const base = `${method} x-request-id: ${'0'.repeat(30)}\r\n`;
        return base.slice(0, at) + String(digit) + base.slice(at + 1);
      });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(block, fc.boolean(), fc.integer()), { maxLength: 200 }),
        fc.constantFrom(1, 2, 16),
        fc.boolean(),
        (steps, slots, behind) => {
          const memo = new BlockMemo<number>(slots, 1_000, behind);
          const last = new Map<string, number>();
          for (const [text, write, value] of steps) {
            const found = memo.get(anew(text));
            if (found !== undefined) expect(found).toBe(last.get(text));
            if (write) {
              memo.set(anew(text), value);
              last.set(text, value);
            }
          }
        },
      ),
    );
  });
});
