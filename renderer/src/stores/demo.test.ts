// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_DISMISSED_KEY, DEMO_PROGRESS_KEY, isFirstRun, useDemoStore } from './demo';

const storage = (items: Record<string, string>) => ({ getItem: (key: string) => items[key] ?? null });

describe('the guided demo’s first run', () => {
  it('is a first run until the demo was closed once in this browser', () => {
    expect(isFirstRun(storage({}))).toBe(true);
    expect(isFirstRun(storage({ [DEMO_DISMISSED_KEY]: '1' }))).toBe(false);
  });

  it('is not when storage is refused: the demo would open on every load', () => {
    expect(
      isFirstRun({
        getItem: () => {
          throw new Error('denied');
        },
      }),
    ).toBe(false);
  });
});

describe('the guided demo’s ticks across a restart (review-v 6)', () => {
  afterEach(() => useDemoStore.setState({ done: {}, marks: {}, start: undefined }));

  it('keeps them for the start they were made in, and lets them go for another', () => {
    const demo = () => useDemoStore.getState();
    demo().startKnown('start-a');
    demo().tick('signIn');
    demo().tick('play');
    demo().mark({ ruleId: 'rule-1' });
    // The same start again (a reconnect, a reload): nothing lost.
    demo().startKnown('start-a');
    expect(demo().done).toEqual({ signIn: true, play: true });
    expect(JSON.parse(sessionStorage.getItem(DEMO_PROGRESS_KEY)!).state).toMatchObject({ start: 'start-a' });
    // The console started again under this tab: its players and rules are not the ones ticked.
    demo().startKnown('start-b');
    expect(demo().done).toEqual({});
    expect(demo().marks).toEqual({});
    expect(demo().start).toBe('start-b');
  });

  it('lets go of ticks kept before the start was known to them (an older page)', () => {
    useDemoStore.setState({ done: { signIn: true }, marks: {}, start: undefined });
    useDemoStore.getState().startKnown('start-a');
    expect(useDemoStore.getState().done).toEqual({});
  });
});
