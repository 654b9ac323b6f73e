/**
 * The registry between the palette and the areas' features: an action asked for runs at once
 * when its feature is mounted, else as soon as it registers, and says why when it never does.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { askPaletteAction, PALETTE_ACTIONS, registerPaletteHandler, usePaletteRegistry } from './palette-actions';

afterEach(() => {
  vi.useRealTimers();
  usePaletteRegistry.setState({ handlers: {}, pending: null });
});

describe('the palette action registry', () => {
  it('runs a registered handler at once and settles with its outcome', async () => {
    const off = registerPaletteHandler('traffic.exportHar', () => Promise.resolve('exported'));
    await expect(askPaletteAction('traffic.exportHar')).resolves.toBe('exported');
    off();
    expect(usePaletteRegistry.getState().handlers['traffic.exportHar']).toBeUndefined();
  });

  it('waits for the feature to mount, then runs it; a failure is the answer', async () => {
    const asked = askPaletteAction('player.sendRefresh');
    const handler = vi.fn(() => Promise.reject(new Error('the player is offline')));
    registerPaletteHandler('player.sendRefresh', handler);
    await expect(asked).rejects.toThrow('the player is offline');
    expect(handler).toHaveBeenCalledTimes(1);
    expect(usePaletteRegistry.getState().pending).toBeNull();
  });

  it('says why when the area registers nothing in time, and a late handler does not run', async () => {
    vi.useFakeTimers();
    const asked = askPaletteAction('faults.newScenario', 100);
    const failed = expect(asked).rejects.toThrow(PALETTE_ACTIONS['faults.newScenario'].unavailable);
    vi.advanceTimersByTime(100);
    await failed;
    const late = vi.fn();
    registerPaletteHandler('faults.newScenario', late);
    expect(late).not.toHaveBeenCalled();
  });

  it('an unmounted feature’s handler is gone; a newer one of the same action stays', () => {
    const first = registerPaletteHandler('oauth.newIntegration', () => 1);
    const second = () => 2;
    registerPaletteHandler('oauth.newIntegration', second);
    first();
    expect(usePaletteRegistry.getState().handlers['oauth.newIntegration']).toBe(second);
  });
});
