// @vitest-environment happy-dom
/**
 * The log's settings bar over a fake engine whose answers arrive when the test lets them: what the
 * user typed while a change was on its way must stay, with its check (CI once typed 8 MB while the
 * 64 MB answer was still in flight, and the answer wiped the draft and its alert).
 */
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { TrafficSettings } from '@engine-api/traffic-types';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { TrafficSettingsBar } from './TrafficSettingsBar';

afterEach(cleanup);

const MB = 1024 * 1024;

function renderBar() {
  let settings: TrafficSettings = { retention: 10_000, retentionBytes: 256 * MB, capture: true };
  const held: (() => void)[] = [];
  renderOverFakeEngine(<TrafficSettingsBar />, async (name, input) => {
    if (name === 'traffic.settings') return { ok: true, value: settings as never };
    if (name === 'traffic.configure') {
      // The engine applies at once; its answer reaches the page only when the test releases it.
      settings = { ...settings, ...(input as Partial<TrafficSettings>) };
      const answer = settings;
      await new Promise<void>((release) => held.push(release));
      return { ok: true, value: answer as never };
    }
    return { ok: false, error: { code: 'not_found', message: name } };
  });
  return { held, budget: () => screen.getByLabelText('Byte budget') as HTMLInputElement };
}

describe('the traffic settings bar', () => {
  it('keeps a budget typed while the previous one was being applied, and says it is out of range', async () => {
    const user = userEvent.setup();
    const { held, budget } = renderBar();
    await waitFor(() => expect(budget().value).toBe('256'));

    await user.clear(budget());
    await user.type(budget(), '64{Enter}');
    await waitFor(() => expect(held).toHaveLength(1));
    await user.clear(budget());
    await user.type(budget(), '8');
    await act(async () => held.shift()!());

    expect(budget().value).toBe('8');
    expect(screen.getByRole('alert').textContent).toBe('keep 16 to 1,048,576 MB');
  });

  it('forgets the draft once the engine has applied exactly it', async () => {
    const user = userEvent.setup();
    const { held, budget } = renderBar();
    await waitFor(() => expect(budget().value).toBe('256'));

    await user.clear(budget());
    await user.type(budget(), '64{Enter}');
    await waitFor(() => expect(held).toHaveLength(1));
    await act(async () => held.shift()!());

    expect(budget().value).toBe('64');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
