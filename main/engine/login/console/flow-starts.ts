/**
 * Flows the console started itself (the sample integration, "Start OAuth flow"): their state
 * value ties the authorization request that follows to the flow the console already opened, and
 * the sample keeps its PKCE verifier here until its callback. Bounded: the oldest goes first.
 */
const MAX_STARTS = 200;

export interface StartedFlowRecord {
  flowId: string;
  clientId: string;
  redirectUri: string;
  state: string;
  /** The console's own sample integration finishes this flow at its callback. */
  sample: boolean;
  codeVerifier: string | null;
}

export class FlowStarts {
  private readonly byStateKey = new Map<string, StartedFlowRecord>();

  add(record: StartedFlowRecord): void {
    if (this.byStateKey.size >= MAX_STARTS) this.byStateKey.delete(this.byStateKey.keys().next().value!);
    this.byStateKey.set(record.state, record);
  }

  /** The console-started flow an authorization request belongs to, if any. */
  find(clientId: string | undefined, state: string | undefined): StartedFlowRecord | undefined {
    const record = state === undefined ? undefined : this.byStateKey.get(state);
    return record && record.clientId === clientId ? record : undefined;
  }

  byState(state: string): StartedFlowRecord | undefined {
    return this.byStateKey.get(state);
  }

  byFlow(flowId: string): StartedFlowRecord | undefined {
    for (const record of this.byStateKey.values()) if (record.flowId === flowId) return record;
    return undefined;
  }

  /** Ends a start once its callback arrived (a state is good for one callback). */
  forget(state: string): void {
    this.byStateKey.delete(state);
  }
}
