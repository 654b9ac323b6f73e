/**
 * The flow inspector's record stays bounded whatever a client sends: a client that retries a
 * refused token request for ever lands every try on one flow.
 */
import { describe, expect, it } from 'vitest';
import { openStore } from '../../store/store.js';
import { FlowRecorder, STEPS_PER_FLOW, type StepInput } from './flow-recorder.js';

const recorderOn = (store = openStore({ dataDir: null })) => ({
  store,
  recorder: new FlowRecorder(store, { now: () => 1_000 }, { emit: () => undefined }),
});

const failedRefresh: StepInput = {
  ok: false,
  summary: 'token request refused: invalid_grant',
  detail: {
    kind: 'token',
    grantType: 'refresh_token',
    basic: { present: false } as never,
    params: { grant_type: ['refresh_token'], refresh_token: ['rt-presented-again'] },
    checks: [],
    status: 400,
    error: { error: 'invalid_grant', error_description: 'the refresh token was revoked' } as never,
  },
};

describe('steps of one flow', () => {
  it(`are stored up to ${STEPS_PER_FLOW}; later ones are counted, not stored, and the last stored says so`, () => {
    const { store, recorder } = recorderOn();
    const flowId = recorder.start({ origin: 'external' });
    for (let attempt = 0; attempt < STEPS_PER_FLOW * 3; attempt++) recorder.step(flowId, failedRefresh);
    const flow = recorder.get(flowId)!;
    expect(flow.steps).toHaveLength(STEPS_PER_FLOW);
    expect(flow.steps.at(-1)!.summary).toMatch(/later steps of this flow are not recorded/);
    expect(store.oauthFlows.get(flowId)!.stepCount).toBe(STEPS_PER_FLOW);
  });

  it('stay capped across a restart: the count starts from what the store holds', () => {
    const { store, recorder } = recorderOn();
    const flowId = recorder.start({ origin: 'external' });
    for (let attempt = 0; attempt < STEPS_PER_FLOW; attempt++) recorder.step(flowId, failedRefresh);
    const restarted = recorderOn(store).recorder;
    for (let attempt = 0; attempt < 50; attempt++) restarted.step(flowId, failedRefresh);
    expect(store.oauthFlows.get(flowId)!.stepCount).toBe(STEPS_PER_FLOW);
  });
});

describe('a step nobody watches', () => {
  it('is stored without reading its flow back, and a new flow’s count starts without a read', () => {
    const store = openStore({ dataDir: null });
    const emitted: unknown[] = [];
    const recorder = new FlowRecorder(
      store,
      { now: () => 1_000 },
      { emit: (_name: string, data: unknown) => void emitted.push(data), wants: () => false },
    );
    const reads = { get: 0, addStep: 0 };
    const { oauthFlows } = store;
    const get = oauthFlows.get.bind(oauthFlows);
    const addStep = oauthFlows.addStep.bind(oauthFlows);
    oauthFlows.get = (id) => (reads.get++, get(id));
    oauthFlows.addStep = (step, status) => (reads.addStep++, addStep(step, status));

    const flowId = recorder.step(null, failedRefresh);
    recorder.step(flowId, failedRefresh);
    expect(reads).toEqual({ get: 0, addStep: 0 });
    expect(emitted).toEqual([]);
    expect(get(flowId)!.stepCount).toBe(2);
    expect(recorder.get(flowId)!.steps.map((s) => s.summary)).toEqual([failedRefresh.summary, failedRefresh.summary]);
  });

  it('is read back with its flow for someone listening', () => {
    const store = openStore({ dataDir: null });
    const emitted: { flow: { stepCount: number } }[] = [];
    const recorder = new FlowRecorder(
      store,
      { now: () => 1_000 },
      { emit: (_name: string, data: unknown) => void emitted.push(data as never), wants: () => true },
    );
    const flowId = recorder.step(null, failedRefresh);
    recorder.step(flowId, failedRefresh);
    expect(emitted.map((e) => e.flow.stepCount)).toEqual([1, 2]);
  });
});
