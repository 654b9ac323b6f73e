// @vitest-environment happy-dom
/**
 * Focus stays where a keyboard user is (audit-ui W13): Inject keeps it while the rule goes in, and
 * removing a rule hands it to the next rule's ✕, then to the preset once none is left.
 */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transport } from '../../api/client';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { WorkbenchFaults } from './WorkbenchFaults';

afterEach(cleanup);

const rule = (id: string) => ({ id, label: id, target: 'cloudQueue', match: {}, action: { type: 'drop' }, hits: 0 });

function fakeFaults(): { call: Transport['call']; release(): void } {
  let rules = [rule('first'), rule('second')];
  let release = () => undefined as void;
  const call = (async (name: string, input: { id?: string }) => {
    const value = await (async () => {
      switch (name) {
        case 'faults.list':
          return rules;
        case 'faults.presets':
          return [{ id: 'drop', label: 'Drop', description: '', rule: { target: 'player', action: { type: 'drop' } } }];
        case 'players.detail':
          return { refusals: {} };
        case 'faults.remove':
          rules = rules.filter((r) => r.id !== input.id);
          return { removed: true };
        case 'faults.applyPreset':
          // Held until the test lets it go: the rule is still on its way.
          await new Promise<void>((resolve) => (release = resolve));
          rules = [...rules, rule('injected')];
          return rules.at(-1);
        default:
          throw new Error(`unexpected ${name}`);
      }
    })();
    return { ok: true, value };
  }) as Transport['call'];
  return { call, release: () => release() };
}

describe('the fault rules beside the player, by keyboard', () => {
  it('hands the focus of a removed rule to the next rule, then to the preset', async () => {
    renderOverFakeEngine(<WorkbenchFaults playerId="player-kitchen" />, fakeFaults().call);
    const first = await screen.findByRole('button', { name: 'Remove rule first' });
    first.focus();
    fireEvent.click(first);
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Remove rule second'));
    fireEvent.click(document.activeElement!);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Fault preset' })));
  });

  it('keeps the focus on Inject while the rule goes in', async () => {
    const engine = fakeFaults();
    renderOverFakeEngine(<WorkbenchFaults playerId="player-kitchen" />, engine.call);
    await screen.findByRole('button', { name: 'Remove rule first' });
    const inject = screen.getByRole('button', { name: 'Inject' });
    inject.focus();
    fireEvent.click(inject);
    await screen.findByRole('button', { name: 'Injecting…' });
    // Disabled, Chromium would drop the focus to the page (happy-dom does not): it says it is busy instead.
    expect((inject as HTMLButtonElement).disabled).toBe(false);
    expect(inject.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(inject);
    await act(async () => engine.release());
    await screen.findByRole('button', { name: 'Remove rule injected' });
    expect(document.activeElement).toBe(inject);
  });
});
