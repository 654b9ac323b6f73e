// @vitest-environment happy-dom
/**
 * The demo's sign-in popup: opened centred over the console, and closed by the demo once the
 * token is held, trying again while the browser refuses (the window still on another origin).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeSignInWindow, holdSignInWindow, popupFeatures } from './demo-popup';
import { DEMO_AREAS } from './useDemo';

afterEach(() => vi.useRealTimers());

/** A window that ignores close() for its first `refusals` calls, as one on another origin does. */
function fakeWindow(refusals: number) {
  const state = { closed: false, calls: 0 };
  const window = {
    get closed() {
      return state.closed;
    },
    close() {
      state.calls += 1;
      if (state.calls > refusals) state.closed = true;
    },
  } as unknown as Window;
  return { window, state };
}

describe('the sign-in popup', () => {
  it('is a popup window centred over the console, not a tab', () => {
    expect(popupFeatures({ screenX: 100, screenY: 50, outerWidth: 1440, outerHeight: 900 })).toBe(
      'popup,width=520,height=720,left=560,top=110',
    );
    // Never off the screen's left or top edge.
    expect(popupFeatures({ screenX: 0, screenY: 0, outerWidth: 400, outerHeight: 500 })).toMatch(/left=0,top=0$/);
  });

  it('closes at once when the browser lets it', () => {
    const { window, state } = fakeWindow(0);
    holdSignInWindow(window);
    closeSignInWindow();
    expect(state.closed).toBe(true);
  });

  it('tries again until the window is gone, then stops; a second call has nothing to close', () => {
    vi.useFakeTimers();
    const { window, state } = fakeWindow(3);
    holdSignInWindow(window);
    closeSignInWindow();
    expect(state.closed).toBe(false);
    vi.advanceTimersByTime(750);
    expect(state.closed).toBe(true);
    vi.advanceTimersByTime(5_000);
    expect(state.calls).toBe(4);
    closeSignInWindow();
    expect(state.calls).toBe(4);
  });

  it('gives up after a while on a window it may never close', () => {
    vi.useFakeTimers();
    const { window, state } = fakeWindow(Infinity);
    holdSignInWindow(window);
    closeSignInWindow();
    vi.advanceTimersByTime(60_000);
    const calls = state.calls;
    vi.advanceTimersByTime(60_000);
    expect(state.calls).toBe(calls);
  });
});

describe('the demo’s areas', () => {
  it('signs in on the OAuth area and plays, pauses, reports and retries on the Player page', () => {
    expect(DEMO_AREAS).toEqual({
      signIn: 'oauth',
      play: 'player',
      skip: 'player',
      pause: 'player',
      reports: 'player',
      retries: 'player',
    });
  });
});
