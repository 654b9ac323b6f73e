/**
 * Which flow the inspector shows, and what starting each flow here gave (its authorize URL and
 * PKCE code_verifier): starting a flow selects it, so its timeline fills in live, and the verifier
 * the token request needs stays with the flow while the console is open, not only in the notice
 * under the button, which a visit to another area took away.
 */
import { create } from 'zustand';
import type { StartedFlow } from '@engine-api/oauth-types';

export interface StartOutcome extends StartedFlow {
  codeVerifier: string | null;
  /** The browser refused to open a tab: the page shows the URL to open by hand. */
  blocked: boolean;
}

interface InspectorStore {
  selected: string | null;
  /** By flow id, the flows started from this window. */
  started: Record<string, StartOutcome>;
  select(flowId: string | null): void;
  /** A flow just started here: selected, and its outcome kept. */
  startedHere(outcome: StartOutcome): void;
}

export const useInspectorStore = create<InspectorStore>((set) => ({
  selected: null,
  started: {},
  select: (selected) => set({ selected }),
  startedHere: (outcome) => set((s) => ({ selected: outcome.flowId, started: { ...s.started, [outcome.flowId]: outcome } })),
}));
