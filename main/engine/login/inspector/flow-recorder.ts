/**
 * `login/inspector/`: the OAuth flow inspector's record. This file is its recorder; `checklist.ts`
 * is the record of what one request was checked against, line by line.
 *
 * Every step of a flow (authorize request, login, consent, redirect, token requests, refreshes,
 * API calls) lands on one timeline, stored and pushed as an event. Only the newest flows are kept,
 * and a chatty integration cannot grow one flow without end. No step holds a secret in clear
 * (`step-masking.ts`, docs/contract/console.md §9).
 */
import type { FlowOrigin, FlowStatus, FlowStepDetail, FlowSummary, FlowView } from '../../api/oauth-types.js';
import type { EngineClock } from '../../clock/clock.js';
import type { EventBus } from '../../events/bus.js';
import type { Store } from '../../store/store.js';
import { atomically, type AtomicStore } from '../atomic.js';
import { newId } from '../../security/random.js';
import type { KnownSecrets } from '../../security/known-secrets.js';
import { maskKnownSecrets, maskStep } from './step-masking.js';

export const KEPT_FLOWS = 500;
/** API calls recorded per flow; later ones are counted, not stored. */
export const API_CALLS_PER_FLOW = 200;
/**
 * Steps of any kind recorded per flow: a client that retries a refused refresh token for ever
 * lands every try on that token's flow. Later steps are counted, not stored.
 */
export const STEPS_PER_FLOW = 500;
/** Flows whose counts are held in memory: more than are kept, so a kept flow's count is never lost. */
const COUNTED_FLOWS = KEPT_FLOWS * 2;

export interface FlowStart {
  origin: FlowOrigin;
  integrationId?: string | null;
  integrationName?: string | null;
  clientId?: string | null;
}

export interface StepInput {
  ok: boolean;
  summary: string;
  detail: FlowStepDetail;
  /** The flow's status after this step, when the step changes it. */
  status?: FlowStatus;
}

export class FlowRecorder {
  private created = 0;
  /** Per flow, in the order first seen: steps recorded (or refused) and API calls among them. */
  private readonly counts = new Map<string, { steps: number; apiCalls: number }>();

  constructor(
    private readonly store: Pick<Store, 'oauthFlows'> & AtomicStore,
    private readonly clock: Pick<EngineClock, 'now'>,
    /** Without `wants`, every step is read back for its event. */
    private readonly bus: Pick<EventBus, 'emit'> & Partial<Pick<EventBus, 'wants'>>,
    /** Secrets known by value, masked wherever they stand in a step. */
    private readonly secrets?: KnownSecrets,
  ) {}

  start(start: FlowStart): string {
    const now = this.now();
    const id = newId('flow', now);
    this.store.oauthFlows.create({
      id,
      origin: start.origin,
      integrationId: start.integrationId ?? null,
      integrationName: start.integrationName ?? null,
      clientId: start.clientId ?? null,
      status: 'started',
      startedAt: now,
    });
    if (++this.created % 50 === 0) this.store.oauthFlows.prune(KEPT_FLOWS);
    // A new flow has no steps: its count starts here, not from a read of the store.
    this.countFrom(id, 0);
    return id;
  }

  /** Names the integration of a flow that started before its client was known. */
  identify(flowId: string, integrationId: string, integrationName: string, clientId: string): void {
    this.store.oauthFlows.setClient(flowId, integrationId, integrationName, clientId);
  }

  exists(flowId: string | null | undefined): flowId is string {
    return !!flowId && this.store.oauthFlows.has(flowId);
  }

  /** Records a step of `flowId` (or of a new flow, when that one is gone) and returns the flow id. */
  step(flowId: string | null | undefined, input: StepInput, orStart?: FlowStart): string {
    const id = this.exists(flowId) ? flowId : this.start(orStart ?? { origin: 'external' });
    const count = this.countOf(id);
    count.steps++;
    if (input.detail.kind === 'api_call') {
      count.apiCalls++;
      if (count.apiCalls > API_CALLS_PER_FLOW) return id;
      if (count.apiCalls === API_CALLS_PER_FLOW)
        input = { ...input, summary: `${input.summary} (later API calls of this flow are not recorded)` };
    }
    if (count.steps > STEPS_PER_FLOW) return id;
    if (count.steps === STEPS_PER_FLOW)
      input = { ...input, summary: `${input.summary} (later steps of this flow are not recorded)` };
    input = maskStep(input);
    if (this.secrets) input = maskKnownSecrets(input, this.secrets);
    const at = this.now();
    const step = {
      flowId: id,
      at,
      kind: input.detail.kind,
      ok: input.ok,
      summary: input.summary,
      detail: input.detail,
    };
    // The flow's summary is read back only for someone listening (the inspector open, a script).
    if (this.bus.wants?.('oauth.flowStep') === false) {
      atomically(this.store, () => this.store.oauthFlows.appendStep(step, input.status));
      return id;
    }
    const recorded = atomically(this.store, () => this.store.oauthFlows.addStep(step, input.status));
    this.bus.emit('oauth.flowStep', recorded);
    return id;
  }

  list(limit = 100): FlowSummary[] {
    return this.store.oauthFlows.list(limit);
  }

  get(flowId: string): FlowView | undefined {
    const flow = this.store.oauthFlows.get(flowId);
    return flow && { ...flow, steps: this.store.oauthFlows.listSteps(flowId).map(maskStep) };
  }

  /** A flow seen first in this run starts from what the store holds (a restart keeps the cap). */
  private countOf(flowId: string): { steps: number; apiCalls: number } {
    return this.counts.get(flowId) ?? this.countFrom(flowId, this.store.oauthFlows.get(flowId)?.stepCount ?? 0);
  }

  private countFrom(flowId: string, steps: number): { steps: number; apiCalls: number } {
    const count = { steps, apiCalls: 0 };
    this.counts.set(flowId, count);
    if (this.counts.size > COUNTED_FLOWS) this.counts.delete(this.counts.keys().next().value!);
    return count;
  }

  private now(): number {
    return Math.floor(this.clock.now());
  }
}
