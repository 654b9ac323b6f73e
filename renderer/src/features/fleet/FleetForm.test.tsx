// @vitest-environment happy-dom
/**
 * The fleet form says a field's problem as the field is left, not first when Start is pressed
 * (audit-ui W16), and takes back what it said once another field's edit mends it.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FaultPreset } from '@engine-api/commands/faults';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { FleetForm } from './FleetForm';

const presets = [{ id: '503-storm', label: '503 storm', rule: { target: 'cloudQueue' } }] as unknown as FaultPreset[];
const started: unknown[] = [];

beforeEach(() => {
  localStorage.clear();
  started.length = 0;
  renderOverFakeEngine(<FleetForm running={false} onStarted={() => undefined} />, async (name, input) => {
    if (name === 'faults.presets') return { ok: true, value: presets as never };
    if (name === 'fleets.start') {
      started.push(input);
      return { ok: true, value: { id: 'fleet-1' } as never };
    }
    return { ok: false, error: { code: 'not_found' as const, message: name } };
  });
});
afterEach(cleanup);

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const problemOf = (element: HTMLElement) => {
  const id = element.getAttribute('aria-describedby');
  return id && element.getAttribute('aria-invalid') === 'true' ? document.getElementById(id)?.textContent : null;
};

describe('FleetForm', () => {
  it("says a field's problem when it is left, and nothing of fields not yet left", async () => {
    const user = userEvent.setup();
    await user.clear(input('Players'));
    await user.type(input('Players'), '0');
    expect(problemOf(input('Players'))).toBeNull();
    await user.tab();
    expect(problemOf(input('Players'))).toBe('Players must be from 1 to 20,000.');
    expect(input('Players').value).toBe('0');
    await user.clear(input('Speed'));
    expect(problemOf(input('Speed'))).toBeNull();

    await user.type(input('Players'), '{Backspace}25');
    expect(problemOf(input('Players'))).toBeNull();
    await user.tab();
    expect(problemOf(input('Players'))).toBeNull();
    expect(started).toEqual([]);
  });

  it("takes back Authorization's problem once a Base URL is given", async () => {
    const user = userEvent.setup();
    await user.type(input('Authorization (optional)'), 'Bearer mine');
    await user.tab();
    expect(problemOf(input('Authorization (optional)'))).toMatch(/sent to a Base URL/);
    await user.type(input('Base URL (optional)'), 'http://127.0.0.1:9/');
    await user.tab();
    expect(problemOf(input('Authorization (optional)'))).toBeNull();
    expect(problemOf(input('Base URL (optional)'))).toBeNull();
  });

  it("says a fault row's problem when its field is left", async () => {
    const user = userEvent.setup();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Add a fault' }).hasAttribute('disabled')).toBe(false),
    );
    await user.click(screen.getByRole('button', { name: 'Add a fault' }));
    const from = document.getElementById('fleet-fault-0-start') as HTMLInputElement;
    await user.clear(from);
    await user.type(from, '999');
    await user.tab();
    expect(problemOf(from)).toBe('Start must be before the fleet ends.');
    expect(from.value).toBe('999');
  });

  it("reads the rows' problems again as other fields are left, and keeps a row's while another is edited", async () => {
    const user = userEvent.setup();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Add a fault' }).hasAttribute('disabled')).toBe(false),
    );
    await user.click(screen.getByRole('button', { name: 'Add a fault' }));
    await user.click(screen.getByRole('button', { name: 'Add a fault' }));
    const from = (row: number) => document.getElementById(`fleet-fault-${row}-start`) as HTMLInputElement;
    for (const row of [0, 1]) {
      await user.clear(from(row));
      await user.type(from(row), '90');
      await user.tab();
      expect(problemOf(from(row))).toBe('Start must be before the fleet ends.');
    }
    // Row 0 edited: row 1 still says what is wrong with it.
    await user.type(from(0), '0');
    expect(problemOf(from(0))).toBeNull();
    expect(problemOf(from(1))).toBe('Start must be before the fleet ends.');
    // A Duration long enough, left: both rows' problems are gone, the one not left too.
    await user.clear(input('Duration (s)'));
    await user.type(input('Duration (s)'), '1000');
    await user.tab();
    expect(problemOf(from(0))).toBeNull();
    expect(problemOf(from(1))).toBeNull();
  });

  it('says the problem of a field left by a click once that click is done, and the click does its work', async () => {
    const user = userEvent.setup();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Add a fault' }).hasAttribute('disabled')).toBe(false),
    );
    await user.clear(input('Skip rate'));
    await user.type(input('Skip rate'), '1.5');
    await user.click(screen.getByRole('button', { name: 'Add a one-minute outage' }));
    expect(document.getElementById('fleet-fault-0-start')).toBeTruthy();
    await waitFor(() => expect(problemOf(input('Skip rate'))).toBe('Skip rate must be from 0 to 1.'));
  });
});
