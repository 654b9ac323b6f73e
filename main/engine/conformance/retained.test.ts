/**
 * What a run keeps of an answer after its case read it (retained.ts): no more than evidence
 * shows, nothing that holds the whole body alive, and items that later cases judge the same.
 */
import { describe, expect, it } from 'vitest';
import { MAX_EVIDENCE_BODY_BYTES } from '../api/conformance-types.js';
import { exchangeOf } from './evidence.js';
import { windowOf, type WindowView } from './facts.js';
import { retained, retainedView } from './retained.js';
import type { Answer } from './server.js';

const windowAnswer = (items: unknown[]): Answer => {
  const text = JSON.stringify({ items, includesBeginningOfQueue: true, includesEndOfQueue: true, queueVersion: '1' });
  return {
    exchange: {
      method: 'GET',
      url: 'http://h/q/v2.3/itemWindow?reason=load',
      endpoint: 'itemWindow',
      requestHeaders: {},
      responseHeaders: { 'content-type': 'application/json' },
      responseBody: text,
      status: 200,
      latencyMs: 3,
    },
    status: 200,
    text,
    json: JSON.parse(text),
    failure: undefined,
  } as unknown as Answer;
};

const fat = (n: number, name: string, query = 'sig=a') => ({
  id: `item-${n}`,
  track: {
    name,
    mediaUrl: `https://media.example/${n}.mp3?${query}${'x'.repeat(400)}`,
    durationMillis: 1_000,
    art: [1, 2, 3],
  },
});

describe('an answer as a run keeps it', () => {
  it('keeps a small answer whole, the same object', () => {
    const small = windowAnswer([fat(1, 'One')]);
    expect(retained(small)).toBe(small);
  });

  it('keeps a big one as far as evidence shows it, with its size, and no parsed body', () => {
    const big = windowAnswer(Array.from({ length: 200 }, (_, i) => fat(i, `Track ${i} ${'♪'.repeat(2_000)}`)));
    const kept = retained(big);
    expect(kept.text.length).toBe(MAX_EVIDENCE_BODY_BYTES);
    expect(kept.json).toBeUndefined();
    expect(kept.bodyBytes).toBe(Buffer.byteLength(big.text));
    expect(kept.exchange.responseBody).toBe(kept.text);
    expect(retained(big)).toBe(kept);
    // The evidence made from it says what the whole answer said.
    expect(exchangeOf(kept).responseBody).toEqual(exchangeOf(big).responseBody);
    expect(exchangeOf(kept).responseBody).toMatchObject({ cut: true, bytes: Buffer.byteLength(big.text) });
  });

  it("keeps a window's items as later cases read them: equal long names equal, different ones not, a signed URL's query gone", () => {
    const longName = `A ${'very '.repeat(100)}long name`;
    const view = windowOf(
      windowAnswer([fat(1, longName), fat(2, longName, 'sig=b'), fat(3, `${longName}!`), { id: 'x', track: 'no' }]),
    ) as WindowView;
    const kept = retainedView(view);
    const items = kept.items as { id: string; track: { name: string; mediaUrl: string; durationMillis: number } }[];
    expect(items.map((item) => item.id)).toEqual(['item-1', 'item-2', 'item-3', 'x']);
    expect(items[0]!.track.name).toBe(items[1]!.track.name);
    expect(items[0]!.track.name).not.toBe(items[2]!.track.name);
    expect(items[0]!.track.name.length).toBeLessThan(300);
    expect(items[0]!.track.mediaUrl).toBe('https://media.example/1.mp3');
    expect(items[0]!.track.durationMillis).toBe(1_000);
    expect(items[0]!.track).not.toHaveProperty('art');
    expect(items[3]!.track).toBe('no');
    expect(kept.ids).toEqual(view.ids);
    expect(kept.includesEndOfQueue).toBe(true);
  });
});
