import { describe, expect, it, vi } from 'vitest';
import { textSent } from '../http/sent-text.js';
import type { ItemWindow } from './item-window.js';
import { WindowCache } from './window-cache.js';

const head = (queueVersion: number) => ({
  key: 1,
  id: 'q',
  queueVersion,
  contextVersion: 1,
  itemCount: 3,
  accessToken: 't',
  tokenExpiresAt: 0,
});
const query = { itemId: 'item-2', previousWindowSize: 1, upcomingWindowSize: 1 };
const window = {
  bytes: Buffer.from('{}'),
  anchorItemId: 'item-2',
  itemIds: [],
  includesBeginningOfQueue: true,
  includesEndOfQueue: true,
} satisfies ItemWindow;

describe('the window cache', () => {
  it('remembers the text of a window it keeps, so that capture gets it back without decoding', () => {
    const cache = new WindowCache();
    const text = '{"items":[{"title":"Hoppípolla – Sigur Rós"}]}';
    const kept: ItemWindow = { ...window, bytes: Buffer.from(text, 'utf8') };
    const decode = vi.spyOn(kept.bytes, 'toString');
    cache.offer('k', kept);
    // Asked for once, it is not kept, and nothing is decoded for it.
    expect(decode).not.toHaveBeenCalled();
    cache.offer('k', kept);
    expect(decode).toHaveBeenCalledTimes(1);
    // Every send from then on finds the one string, decoded once.
    const first = textSent(kept.bytes);
    expect(first).toBe(text);
    expect(textSent(kept.bytes)).toBe(first);
    expect(decode).toHaveBeenCalledTimes(1);
    // Bytes nobody kept are decoded.
    expect(textSent(Buffer.from('ø'))).toBe('ø');
  });

  it('keeps a window asked for twice, under a key that includes the queue version', () => {
    const cache = new WindowCache();
    const key = cache.key(head(1), query);
    cache.offer(key, window);
    expect(cache.get(key)).toBeUndefined();
    cache.offer(key, window);
    expect(cache.get(key)).toBe(window);
    // After an edit the version differs, so the old window is never served.
    expect(cache.get(cache.key(head(2), query))).toBeUndefined();
  });

  it('forgets a key asked for once when many others were asked for since', () => {
    // Capacity 1: four slots of keys seen once, so 50 other keys leave no trace of 'a'.
    const cache = new WindowCache(1);
    cache.offer('a', window);
    for (let i = 0; i < 50; i++) cache.offer(`other-${i}`, window);
    cache.offer('a', window);
    expect(cache.get('a')).toBeUndefined();
    // Asked for twice in a row, it is kept.
    cache.offer('a', window);
    expect(cache.get('a')).toBe(window);
  });

  it('holds at most its capacity, dropping the least recently used', () => {
    const cache = new WindowCache(2);
    const keys = ['a', 'b', 'c'];
    for (const key of keys) {
      cache.offer(key, window);
      cache.offer(key, window);
    }
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBe(window);
  });

  it('gives a window served since it was kept a second chance before it goes', () => {
    const cache = new WindowCache(2);
    const keep = (key: string) => {
      cache.offer(key, window);
      cache.offer(key, window);
    };
    keep('a');
    keep('b');
    expect(cache.get('a')).toBe(window);
    keep('c');
    // 'a' was the oldest but served: 'b' goes, and 'a' must be served again to survive the next.
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBe(window);
    keep('d');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBe(window);
    expect(cache.get('d')).toBe(window);
  });
});
