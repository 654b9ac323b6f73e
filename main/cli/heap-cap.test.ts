/** `check` runs under a heap cap of its own, unless the user gave one (heap-cap.ts). */
import { describe, expect, it } from 'vitest';
import { CHECK_HEAP_MB, heapCapArgs } from './heap-cap.js';

describe('the heap cap of check', () => {
  it('is added for check, keeping the Node options it was started with', () => {
    expect(heapCapArgs(['check', 'http://x/'], ['--enable-source-maps'], {})).toEqual([
      '--enable-source-maps',
      `--max-old-space-size=${CHECK_HEAP_MB}`,
    ]);
  });

  it('is not added for other commands, in the capped child itself, or over a cap the user gave', () => {
    expect(heapCapArgs(['serve'], [], {})).toBeNull();
    expect(heapCapArgs(['fleet', 'http://x/'], [], {})).toBeNull();
    expect(heapCapArgs(['check', 'http://x/'], [], { CQC_HEAP_CAPPED: '1' })).toBeNull();
    expect(heapCapArgs(['check', 'http://x/'], ['--max-old-space-size=512'], {})).toBeNull();
    expect(heapCapArgs(['check', 'http://x/'], [], { NODE_OPTIONS: '--max-old-space-size=64' })).toBeNull();
  });
});
