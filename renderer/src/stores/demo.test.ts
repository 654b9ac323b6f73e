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
  afterEach(() => useDemoStore.setState({ done: {}, marks: {}, run: undefined }));

  it('keeps them for the run they were made in, and lets them go for another', () => {
    const demo = () => useDemoStore.getState();
    demo().runKnown('run-a');
    demo().tick('signIn');
    demo().tick('play');
    demo().mark({ ruleId: 'rule-1' });
    // The same run again (a reconnect, a reload): nothing lost.
    demo().runKnown('run-a');
    expect(demo().done).toEqual({ signIn: true, play: true });
    expect(JSON.parse(sessionStorage.getItem(DEMO_PROGRESS_KEY)!).state).toMatchObject({ run: 'run-a' });
    // The console started again under this tab: its players and rules are not the ones ticked.
    demo().runKnown('run-b');
    expect(demo().done).toEqual({});
    expect(demo().marks).toEqual({});
    expect(demo().run).toBe('run-b');
  });

  it('lets go of ticks kept before the run was known to them (an older page)', () => {
    useDemoStore.setState({ done: { signIn: true }, marks: {}, run: undefined });
    useDemoStore.getState().runKnown('run-a');
    expect(useDemoStore.getState().done).toEqual({});
  });
});
