/** Cutting an entry to its size (docs/contract/console.md §9): where the cuts fall, and what the entry notes of them. */
import { describe, expect, it } from 'vitest';
import { testTrafficEntry } from '../testing/traffic.js';
import {
  cutBodies,
  cutBody,
  cutHeaderBlock,
  cutHeaders,
  MAX_BODY_BYTES,
  MAX_HEADER_BLOCK_BYTES,
  MAX_HEADER_VALUE_BYTES,
} from './cut.js';

describe('cutting an entry to its size', () => {
  it('cuts a body at its byte size without splitting a character, and says how large it was', () => {
    expect(cutBody('x'.repeat(MAX_BODY_BYTES))).toBeNull();
    const euros = '€'.repeat(30_000); // three bytes each: 90,000 bytes
    const cut = cutBody(euros)!;
    expect(cut.size).toBe(90_000);
    expect(cut.kept).toBe(MAX_BODY_BYTES - (MAX_BODY_BYTES % 3));
    expect(cut.text).toBe('€'.repeat(cut.kept / 3));
  });

  it('cuts a long header value to its first KiB and a block to whole lines within its size', () => {
    const block = `Host: x\r\nX-Junk: ${'a'.repeat(15_000)}\r\nX-Player-Id: p1\r\n`;
    const cut = cutHeaderBlock(block)!;
    expect(cut).toBe(`Host: x\r\nX-Junk: ${'a'.repeat(MAX_HEADER_VALUE_BYTES)}\r\nX-Player-Id: p1\r\n`);
    const many = Array.from({ length: 40 }, (_, i) => `X-H${i}: ${'b'.repeat(1000)}\r\n`).join('');
    const kept = cutHeaderBlock(many)!;
    expect(kept.length).toBeLessThanOrEqual(MAX_HEADER_BLOCK_BYTES);
    expect(kept.endsWith('\r\n')).toBe(true);
    expect(cutHeaderBlock('Host: x\r\n')).toBeNull();
  });

  it('notes every part it cut on the entry, with the size each came in', () => {
    const entry = testTrafficEntry({
      requestHeaders: `X-Junk: ${'a'.repeat(15_000)}\r\n`,
      requestBody: 'y'.repeat(100_000),
      responseBody: 'small',
    });
    cutBodies(entry);
    cutHeaders(entry);
    expect(entry.cut).toEqual({
      requestBody: { kept: MAX_BODY_BYTES, size: 100_000 },
      requestHeaders: { kept: 'X-Junk: '.length + MAX_HEADER_VALUE_BYTES + 2, size: 'X-Junk: '.length + 15_002 },
    });
    expect(entry.responseBody).toBe('small');
  });
});
