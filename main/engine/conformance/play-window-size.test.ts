/**
 * The play-through's player counts a window without itemId from its first item; a first window
 * may start anywhere, so the suite holds it to both sizes and the item in all (cases/play-through.ts
 * `sizedInAll`), as size-limits does, and keeps every other window-size violation.
 */
import { expect, it } from 'vitest';
import type { PlayerExchange } from '../player/client.js';
import type { Violation } from '../player/contract-check.js';
import { sizedInAll } from './cases/play-through.js';

const SIZE: Violation = { endpoint: 'itemWindow', severity: 'warning', rule: 'itemWindow.window-size', message: '' };
const exchange = (query: string, items: number) =>
  ({
    url: `http://q/itemWindow?${query}`,
    responseBody: JSON.stringify({ items: Array.from({ length: items }, (_, i) => ({ id: `item-${i}` })) }),
  }) as PlayerExchange;

it('lets a window without itemId hold both sizes and the item, centred anywhere', () => {
  expect(sizedInAll(SIZE, exchange('reason=load&previousWindowSize=5&upcomingWindowSize=10', 16))).toBe(true);
});

it('keeps the violation for a window without itemId over both sizes and the item in all', () => {
  expect(sizedInAll(SIZE, exchange('reason=load&previousWindowSize=5&upcomingWindowSize=10', 17))).toBe(false);
});

it('keeps it for a window asked around an item, another rule, or a body it cannot read', () => {
  expect(
    sizedInAll(SIZE, exchange('reason=refresh&itemId=item-3&previousWindowSize=5&upcomingWindowSize=10', 12)),
  ).toBe(false);
  expect(
    sizedInAll(
      { ...SIZE, rule: 'itemWindow.queue-ends' },
      exchange('reason=load&previousWindowSize=5&upcomingWindowSize=10', 3),
    ),
  ).toBe(false);
  expect(
    sizedInAll(SIZE, {
      url: 'http://q/itemWindow?reason=load&previousWindowSize=5&upcomingWindowSize=10',
      responseBody: '{',
    } as PlayerExchange),
  ).toBe(false);
  expect(sizedInAll(SIZE, exchange('reason=load', 3))).toBe(false);
});
