/** A message's first finding, for a headline: cut between findings, never inside parentheses (audit). */
import { describe, expect, it } from 'vitest';
import { firstFinding } from './conformance-text.js';

describe('firstFinding', () => {
  it('cuts at the first "; " between findings', () => {
    expect(firstFinding('GET /a: expected 404, got 200; the same for reason=pause')).toBe(
      'GET /a: expected 404, got 200',
    );
    expect(firstFinding('one finding')).toBe('one finding');
  });

  it('keeps a "; " inside parentheses with its finding', () => {
    const warning =
      'http://127.0.0.1:1: it is http, not https: the platform’s players will not reach it (expected an https URL on a public address; this run goes on)';
    expect(firstFinding(warning)).toBe(warning);
    expect(firstFinding(`${warning}; and another`)).toBe(warning);
  });
});
