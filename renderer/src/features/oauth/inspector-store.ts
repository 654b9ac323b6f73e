/** Which flow the inspector shows; starting a flow selects it, so its timeline fills in live. */
import { create } from 'zustand';

export const useInspectorStore = create<{ selected: string | null; select(flowId: string | null): void }>((set) => ({
  selected: null,
  select: (selected) => set({ selected }),
}));
