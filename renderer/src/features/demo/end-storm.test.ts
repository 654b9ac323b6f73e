// @vitest-environment happy-dom
/** Closing the guided demo takes back the 503 storm its last step left live (audit). */
import { afterEach, describe, expect, it } from 'vitest';
import { Api } from '../../api/client';
import { useDemoStore } from '../../stores/demo';
import { endDemoStorm } from './GuidedDemo';

afterEach(() => useDemoStore.getState().mark({ ruleId: undefined }));

function fakeApi(calls: [string, unknown][]): Api {
  return new Api({
    kind: 'http',
    subscribe: () => () => undefined,
    call: async (name, input) => {
      calls.push([name, input]);
      return { ok: true, value: { removed: true } as never };
    },
  });
}

describe('endDemoStorm', () => {
  it("removes the demo's own rule and forgets it", async () => {
    const calls: [string, unknown][] = [];
    useDemoStore.getState().mark({ ruleId: 'fault-demo' });
    endDemoStorm(fakeApi(calls));
    await Promise.resolve();
    expect(calls).toEqual([['faults.remove', { id: 'fault-demo' }]]);
    expect(useDemoStore.getState().marks.ruleId).toBeUndefined();
  });

  it('asks nothing when the demo left no rule', () => {
    const calls: [string, unknown][] = [];
    endDemoStorm(fakeApi(calls));
    expect(calls).toEqual([]);
  });
});
