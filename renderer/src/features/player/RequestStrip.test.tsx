// @vitest-environment happy-dom
/** The player's requests while the traffic is read say so, not that the player made none (audit). */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { RequestStrip } from './RequestStrip';

afterEach(cleanup);

const nothing = async () => ({ ok: false as const, error: { code: 'not_found' as const, message: 'none' } });

describe('the player’s requests with none to show', () => {
  it.each([
    [true, 'Reading the newest traffic…'],
    [false, 'No requests of this player among the newest traffic.'],
  ])('loading %s: says %s', (loading, said) => {
    renderOverFakeEngine(<RequestStrip rows={[]} transitions={[]} playerId="p" loading={loading} />, nothing);
    expect(screen.getByText(said)).toBeTruthy();
  });

  it('says no failure, not no request, when it shows the failed ones alone', () => {
    renderOverFakeEngine(<RequestStrip rows={[]} transitions={[]} playerId="p" rowsShown="failed" />, nothing);
    expect(screen.getByText('No failed or faulted request of this player among the newest traffic.')).toBeTruthy();
  });
});
