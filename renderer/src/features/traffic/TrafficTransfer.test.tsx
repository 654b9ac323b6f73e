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
