// @vitest-environment happy-dom
/** A player whose requests fail says so beside its state, in words a screen reader reads too (W8). */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlayerFailing } from '@engine-api/player-types';
import { FailingLine, FailingMark } from './Failing';

afterEach(cleanup);

const refused: PlayerFailing = {
  since: Date.UTC(2026, 11, 2, 9, 0, 0),
  count: 3,
  endpoint: 'timePlayed',
  status: 401,
  message: '401: the access token of queue q-1 expired',
  at: Date.UTC(2026, 11, 2, 9, 6, 0),
};

describe('FailingMark', () => {
  it('names the status and the run, with the last failure on hover', () => {
    render(<FailingMark failing={refused} />);
    const mark = screen.getByTestId('player-failing');
    expect(mark.textContent).toBe('requests failing 401 ×3');
    expect(mark.getAttribute('data-tone')).toBe('bad');
    expect(mark.title).toMatch(/^the last 3 requests failed since .*; the last, timePlayed: 401: the access token/);
  });

  it('says "no answer" for a request that got none, and no count for one failure', () => {
    const { status: _, ...unanswered } = refused;
    render(<FailingMark failing={{ ...unanswered, count: 1 }} />);
    expect(screen.getByTestId('player-failing').textContent).toBe('requests failing no answer');
  });
});

describe('FailingLine', () => {
  it('says since when, how many and the last failure', () => {
    render(<FailingLine failing={refused} />);
    const line = screen.getByTestId('player-failing-line');
    expect(line.textContent).toMatch(
      /^Failing since \d\d:\d\d:\d\d\.\d{3}: the last 3 requests failed; the last, timePlayed at \d\d:\d\d:\d\d\.\d{3}: 401: the access token of queue q-1 expired$/,
    );
  });
});
