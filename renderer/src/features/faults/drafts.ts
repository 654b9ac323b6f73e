/**
 * What the user typed in the custom rule form and the scenario editor, kept outside the
 * components so leaving the Faults area and coming back loses nothing.
 */
import { create } from 'zustand';
import { EMPTY_RULE, type RuleFields } from './rule-form';

interface ScenarioDraftState {
  /** The scenario being edited (null: a new one), and its JSON as typed. */
  editingId: string | null;
  text: string;
}

interface Drafts {
  rule: RuleFields;
  setRule(patch: Partial<RuleFields>): void;
  resetRule(): void;
  scenario: ScenarioDraftState | null;
  editScenario(draft: ScenarioDraftState | null): void;
  setScenarioText(text: string): void;
}

export const useDrafts = create<Drafts>((set) => ({
  rule: EMPTY_RULE,
  setRule: (patch) => set((s) => ({ rule: { ...s.rule, ...patch } })),
  resetRule: () => set({ rule: EMPTY_RULE }),
  scenario: null,
  editScenario: (scenario) => set({ scenario }),
  setScenarioText: (text) => set((s) => (s.scenario ? { scenario: { ...s.scenario, text } } : s)),
}));
