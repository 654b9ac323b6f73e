import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('JSON nesting depth', () => {
  it('counts arrays and objects inside one another, up to the limit', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":[1,{"c":2}]}}', 3)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":[1,{"c":2}]}}', 4)).toBe(false);
    // Siblings do not add up.
    expect(nestsDeeperThan(`[${Array(500).fill('[1]').join(',')}]`, 2)).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ text: '[[[[[[[[[[' }), 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ text: 'say \\"[[[[\\" and "[[[["' }), 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ text: '\\', deep: [[[1]]] }), 2)).toBe(true);
  });
});
