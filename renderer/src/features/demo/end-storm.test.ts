// @vitest-environment happy-dom
/**
 * Closing the guided demo takes back the 503 storm its last step left live (audit), also from a tab
 * loaded again or another tab, which do not remember the rule's id (audit), and never a 503 storm
 * a user added in the Faults area.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Api } from '../../api/client';
import { DEMO_PROGRESS_KEY, useDemoStore } from '../../stores/demo';
import { DEMO_STORM_LABEL } from './demo-api';
import { endDemoStorm } from './GuidedDemo';

afterEach(() => useDemoStore.getState().reset());

function fakeApi(calls: [string, unknown][], rules: { id: string; label?: string }[] = []): Api {
  return new Api({
    kind: 'http',
    subscribe: () => () => undefined,
    call: async (name, input) => {
      calls.push([name, input]);
      return { ok: true, value: (name === 'faults.list' ? rules : { removed: true }) as never };
    },
  });
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('endDemoStorm', () => {
  it("removes the demo's own rule and forgets it", async () => {
    const calls: [string, unknown][] = [];
    useDemoStore.getState().mark({ ruleId: 'fault-demo' });
    endDemoStorm(fakeApi(calls));
    await settled();
    expect(calls).toEqual([
      ['faults.list', {}],
      ['faults.remove', { id: 'fault-demo' }],
    ]);
    expect(useDemoStore.getState().marks.ruleId).toBeUndefined();
  });

  it("finds the storm by its label when this tab does not remember it, and leaves a user's storm", async () => {
    const calls: [string, unknown][] = [];
    endDemoStorm(
      fakeApi(calls, [
        { id: 'fault-user', label: '503 storm' },
        { id: 'fault-demo', label: DEMO_STORM_LABEL },
      ]),
    );
    await settled();
    expect(calls.filter(([name]) => name === 'faults.remove')).toEqual([['faults.remove', { id: 'fault-demo' }]]);
  });

  it('removes nothing when the demo left no rule', async () => {
    const calls: [string, unknown][] = [];
    endDemoStorm(fakeApi(calls, [{ id: 'fault-user', label: '503 storm' }]));
    await settled();
    expect(calls.filter(([name]) => name === 'faults.remove')).toEqual([]);
  });
});

describe('the demo across a reload', () => {
  it('keeps its ticks and marks in the tab, so a reload shows them again', () => {
    useDemoStore.getState().tick('play');
    useDemoStore.getState().mark({ ruleId: 'fault-demo' });
    expect(JSON.parse(sessionStorage.getItem(DEMO_PROGRESS_KEY)!)).toMatchObject({
      state: { done: { play: true }, marks: { ruleId: 'fault-demo' } },
    });
  });
});
