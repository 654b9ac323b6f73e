/**
 * The run open in the area, kept outside the page so that following an evidence link to the
 * Traffic area and coming back finds the same run open. Null: the newest run.
 */
import { create } from 'zustand';

export const useConformanceView = create<{ selected: string | null; select(id: string | null): void }>((set) => ({
  selected: null,
  select: (selected) => set({ selected }),
}));
