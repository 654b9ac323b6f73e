// @vitest-environment happy-dom
/**
 * Export HAR asks the engine for every filtered entry, whatever the list has loaded so far: the
 * command palette can export from another area before the list knows its count, and the export
 * asked for as many as that count (0, so 1): a HAR of 1 entry of 118 (outsider).
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRAFFIC_EXPORT_MAX } from '@engine-api/traffic-types';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { TrafficTransfer } from './TrafficTransfer';

afterEach(cleanup);

describe('Export HAR', () => {
  it('asks for every filtered entry before the list has counted them, and says how many came', async () => {
    const asked: unknown[] = [];
    const entries = Array.from({ length: 118 }, (_, k) => ({ startedDateTime: String(k) }));
    // A download is the browser's: only its being asked for is seen here.
    URL.createObjectURL = vi.fn(() => 'blob:har');
    URL.revokeObjectURL = vi.fn();
    renderOverFakeEngine(<TrafficTransfer filter={{}} total={0} />, async (name, input) => {
      if (name === 'traffic.har') {
        asked.push(input);
        const { limit } = input as { limit: number };
        return { ok: true, value: { log: { version: '1.2', entries: entries.slice(-limit) } } as never };
      }
      return { ok: false, error: { code: 'not_found', message: name } };
    });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export HAR' }));
    await waitFor(() => expect(screen.getByText(/^Exported 118 entries as HAR\.$/)).toBeTruthy());
    expect(asked).toEqual([{ filter: {}, limit: TRAFFIC_EXPORT_MAX }]);
  });
});

describe('Export repro bundle', () => {
  it('says a bundle with no expectation checks only the calls, its notes open (outsider)', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:bundle');
    URL.revokeObjectURL = vi.fn();
    const note = 'the export is filtered: the scenario does not check the players\u2019 transitions';
    renderOverFakeEngine(<TrafficTransfer filter={{ target: 'player' }} total={3} />, async (name) => {
      if (name === 'bundles.export')
        return {
          ok: true,
          value: {
            har: { log: { entries: [{}, {}, {}] } },
            queues: [],
            faults: [],
            scenario: {
              name: 'x',
              steps: [
                { type: 'clock', speed: 0 },
                { type: 'action', playerId: 'p', action: 'play' },
              ],
            },
            notes: [note],
          } as never,
        };
      return { ok: false, error: { code: 'not_found', message: name } };
    });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export repro bundle' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toMatch(
        /with no expectation: its run checks the calls' answers, not what the players did\./,
      ),
    );
    expect((screen.getByText(/1 note on what will not replay/).closest('details') as HTMLDetailsElement).open).toBe(
      true,
    );
  });

  it('says a bundle with nothing to check as one a run refuses, not as checking the calls (outsider)', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:bundle');
    URL.revokeObjectURL = vi.fn();
    renderOverFakeEngine(<TrafficTransfer filter={{ target: 'console' }} total={0} />, async (name) =>
      name === 'bundles.export'
        ? {
            ok: true,
            value: {
              har: { log: { entries: [] } },
              queues: [],
              faults: [],
              scenario: { name: 'x', steps: [{ type: 'clearFaults' }, { type: 'clock', speed: 0 }] },
              notes: ['the span holds no player\u2019s transition or call to check'],
            } as never,
          }
        : { ok: false, error: { code: 'not_found', message: name } },
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export repro bundle' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toMatch(
        /that checks nothing \(no expectation, no call whose answer is judged\): a run of it is refused/,
      ),
    );
    expect(screen.getByRole('status').textContent).not.toMatch(/checks the calls' answers/);
  });
});
