import { describe, expect, it } from 'vitest';
import { describeAdminApi } from '../../../../main/engine/admin/openapi';
import { groupedRows, operationRows } from './operations';

const document = describeAdminApi('0.0.0');

describe('the API page rows', () => {
  it('lists every operation of the description once', () => {
    const rows = operationRows(document);
    expect(new Set(rows.map((row) => row.operation.operationId)).size).toBe(rows.length);
    expect(groupedRows(document, '').flatMap((group) => group.rows)).toHaveLength(rows.length);
  });

  it('filters by every word typed, across method, path, command and summary', () => {
    const groups = groupedRows(document, 'post queues generate');
    expect(groups.map((group) => group.tag)).toEqual(['queues']);
    expect(groups[0]?.rows.map((row) => row.operation.operationId)).toContain('queues.items.generate');
    expect(groupedRows(document, 'no-such-word')).toEqual([]);
  });
});
