// @vitest-environment happy-dom
/** With the engine lost, the clock stands where it was last seen and its controls are off (audit). */
import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderOverFakeEngine } from '../testing/fake-engine';
import { useClockStore } from '../stores/clock';
import { useConnectionStore } from '../stores/connection';
import { ClockControl } from './ClockControl';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  useConnectionStore.getState().setState('connecting');
});

const nothing = async () => ({ ok: false as const, error: { code: 'not_found' as const, message: 'none' } });

describe('ClockControl', () => {
  it('stops and turns its controls off while the engine is lost, and comes back with it', () => {
    vi.useFakeTimers();
    act(() => {
      useConnectionStore.getState().setState('open');
      useClockStore.getState().setClock({ now: Date.UTC(2026, 11, 4, 12), speed: 1 });
    });
    renderOverFakeEngine(<ClockControl />, nothing);
    const time = () => screen.getByRole('timer', { name: 'Engine time' }).getAttribute('data-now');
    const oneTimes = () => screen.getByRole('radio', { name: /^1×/ }) as HTMLButtonElement;
    expect(oneTimes().disabled).toBe(false);

    act(() => useConnectionStore.getState().setState('reconnecting'));
    const lostAt = time();
    act(() => vi.advanceTimersByTime(5_000));
    expect(time()).toBe(lostAt);
    expect(oneTimes().disabled).toBe(true);
    expect(screen.getByRole('timer').getAttribute('title')).toMatch(/as last seen: the console lost its engine/);

    act(() => useConnectionStore.getState().setState('open'));
    expect(oneTimes().disabled).toBe(false);
  });
});
