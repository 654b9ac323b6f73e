// @vitest-environment happy-dom
/** The engine-lost banner: shown once the engine has been gone a second, gone when it is back. */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useConnectionStore } from '../stores/connection';
import { EngineLost, LOST_AFTER_MS } from './EngineLost';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  useConnectionStore.getState().setState('connecting');
});

const banner = () => screen.queryByRole('alert');

describe('EngineLost', () => {
  it('says the engine is lost once it has been gone a second, and goes when it is back', () => {
    vi.useFakeTimers();
    act(() => useConnectionStore.getState().setState('open'));
    render(<EngineLost />);
    expect(banner()).toBeNull();
    act(() => useConnectionStore.getState().setState('reconnecting'));
    act(() => vi.advanceTimersByTime(LOST_AFTER_MS - 1));
    expect(banner()).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(banner()?.textContent).toMatch(/^The console lost its engine\. Reconnecting on its own since /);
    act(() => useConnectionStore.getState().setState('open'));
    expect(banner()).toBeNull();
  });

  it('says nothing of a hiccup the event stream heals within the second', () => {
    vi.useFakeTimers();
    act(() => useConnectionStore.getState().setState('open'));
    render(<EngineLost />);
    act(() => useConnectionStore.getState().setState('reconnecting'));
    act(() => vi.advanceTimersByTime(300));
    act(() => useConnectionStore.getState().setState('open'));
    act(() => vi.advanceTimersByTime(5_000));
    expect(banner()).toBeNull();
  });

  it('says at once that the console was started again, and offers to load the page again (audit)', () => {
    act(() => useConnectionStore.getState().setState('open'));
    render(<EngineLost />);
    act(() => useConnectionStore.getState().setState('restarted'));
    expect(banner()?.textContent).toMatch(/^The console was started again\..*load the page again to reconnect/);
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeTruthy();
  });
});
