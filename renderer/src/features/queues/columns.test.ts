import { describe, expect, it } from 'vitest';
import type { QueueListItem } from '@engine-api/queue-types';
import { itemColumns, marksWidth } from './columns';
import type { RowMarks } from './marks';

const item = (id: string, extra: Partial<QueueListItem> = {}): QueueListItem =>
  ({ id, track: { name: id, durationMillis: 200_000 }, ...extra }) as QueueListItem;
const kitchen = { key: 'player-kitchen', label: 'Kitchen', color: '#5aa9ff' };

describe('the item rows’ columns', () => {
  it('give the marks no room when no row has any, so title and artist take it', () => {
    expect(itemColumns(19, [item('item-1'), item('item-19')], new Map()).marksPx).toBe(0);
  });

  it('size the marks to the widest row: a player on it, windows, reports', () => {
    const marks: RowMarks = new Map([
      ['item-4', { current: [kitchen], windows: [kitchen] }],
      ['item-5', { current: [], windows: [kitchen] }],
    ]);
    const rows = [item('item-4', { reports: { count: 12, finals: 1 } } as Partial<QueueListItem>), item('item-5')];
    const columns = itemColumns(19, rows, marks);
    expect(columns.marksPx).toBe(marksWidth(rows[0]!, marks));
    expect(columns.marksPx).toBeGreaterThan(marksWidth(rows[1]!, marks));
    expect(columns.marksPx).toBeLessThanOrEqual(260);
  });

  it('fit the longest index, duration and id', () => {
    const narrow = itemColumns(9, [item('item-1')], new Map());
    const wide = itemColumns(100_000, [item('item-100000', { track: { durationMillis: 7_200_000 } })], new Map());
    expect(wide.indexPx).toBeGreaterThan(narrow.indexPx);
    expect(wide.idPx).toBeGreaterThan(narrow.idPx);
    expect(wide.durationPx).toBeGreaterThan(narrow.durationPx);
  });
});
