// @vitest-environment happy-dom
/**
 * The demo's ticks kept in the tab are of one start of the console: the panel takes the engine's
 * `startId` and lets go of another start's ticks (review-v 6).
 */
import { cleanup, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderOverFakeEngine } from '../../testing/fake-engine';
import { useDemoStore } from '../../stores/demo';
import { GuidedDemo } from './GuidedDemo';

afterEach(() => {
  cleanup();
  useDemoStore.setState({ done: {}, marks: {}, start: undefined });
});

let stateAsked = false;

function renderOnStart(startId: string) {
  stateAsked = false;
  renderOverFakeEngine(<GuidedDemo />, async (name) => {
    if (name === 'state.get') {
      stateAsked = true;
      return { ok: true, value: { startId } as never };
    }
    return { ok: false, error: { code: 'not_found' as const, message: name } };
  });
}

describe('GuidedDemo', () => {
  it("lets go of the ticks of the console's start before", async () => {
    useDemoStore.setState({ done: { signIn: true, play: true }, marks: { ruleId: 'rule-1' }, start: 'start-a' });
    renderOnStart('start-b');
    await waitFor(() => expect(useDemoStore.getState().start).toBe('start-b'));
    expect(useDemoStore.getState().done).toEqual({});
    expect(useDemoStore.getState().marks).toEqual({});
  });

  it('keeps the ticks of the start they were made in', async () => {
    useDemoStore.setState({ done: { signIn: true }, marks: {}, start: 'start-a' });
    renderOnStart('start-a');
    // The state answered, and the panel had a turn to take it: the ticks are still there.
    await waitFor(() => expect(stateAsked).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(useDemoStore.getState().start).toBe('start-a');
    expect(useDemoStore.getState().done).toEqual({ signIn: true });
  });
});
