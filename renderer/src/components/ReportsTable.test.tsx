// @vitest-environment happy-dom
/** One table of reports everywhere; one player's panel leaves out the column that names that player on every row (audit). */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TimePlayedRecordView } from '@engine-api/queue-types';
import { renderOverFakeEngine } from '../testing/fake-engine';
import { ReportsTable } from './ReportsTable';

afterEach(cleanup);

const nothing = async () => ({ ok: false as const, error: { code: 'not_found' as const, message: 'none' } });
const report: TimePlayedRecordView = {
  seq: 1,
  itemId: 'item-2',
  playerId: 'player-kitchen',
  receivedAt: 0,
  type: 'update',
  report: { durationPlayedMillis: 61_000, positionMillis: 65_000 } as TimePlayedRecordView['report'],
};
const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent);

describe('the reports table', () => {
  it('names each report’s player where reports of several may show', () => {
    renderOverFakeEngine(<ReportsTable reports={[report]} playerName={() => 'Kitchen'} />, nothing);
    expect(headers()).toEqual(['Received', 'Item', 'Player', 'Type', 'Played', 'Position']);
    expect(screen.getByRole('cell', { name: 'Kitchen' })).toBeTruthy();
  });

  it('leaves the Player column out when every report is one player’s', () => {
    renderOverFakeEngine(<ReportsTable reports={[report]} onePlayer />, nothing);
    expect(headers()).toEqual(['Received', 'Item', 'Type', 'Played', 'Position']);
    expect(screen.getAllByRole('cell').map((c) => c.textContent)).toContain('1:05');
  });
});
