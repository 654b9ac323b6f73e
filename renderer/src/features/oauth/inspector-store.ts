/**
 * Which flow the inspector shows, and what starting each flow here gave (its authorize URL and
 * PKCE code_verifier). The flow shown is the address (`#/oauth?flow=<id>`), so a reload or a link
 * opens it; starting a flow shows it, so its timeline fills in live. The verifier the token
 * request needs stays with the flow while the console is open, not only in the notice under the
 * button, which a visit to another area took away.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { create } from 'zustand';
import type { RevealedCode } from '@engine-api/oauth-types';
import type { StartOutcome } from '../../queries/start-flow';
import { useAreaPlace } from '../../router/area-memory';

export type { StartOutcome };

interface InspectorStore {
  /** By flow id, the flows started from this window. */
  started: Record<string, StartOutcome>;
  /** A flow just started here: its outcome kept. */
  startedHere(outcome: StartOutcome): void;
  /** By flow id, captured codes revealed in this window: the engine gives each one once. */
  revealed: Record<string, RevealedCode>;
  keepRevealed(code: RevealedCode): void;
}

export const useInspectorStore = create<InspectorStore>((set) => ({
  started: {},
  startedHere: (outcome) => set((s) => ({ started: { ...s.started, [outcome.flowId]: outcome } })),
  revealed: {},
  keepRevealed: (code) => set((s) => ({ revealed: { ...s.revealed, [code.flowId]: code } })),
}));

const route = getRouteApi('/oauth');

/** The flow the address names; null: the inspector shows the newest. */
export function useSelectedFlow(): string | null {
  return route.useSearch().flow ?? null;
}

/** Shows a flow in the inspector, the unfolded integration staying as it is. */
export function useSelectFlow(): (flowId: string | null) => void {
  const oauth = useAreaPlace('oauth');
  return useCallback((flowId) => oauth.go({ ...oauth.current(), flow: flowId ?? undefined }), [oauth]);
}
