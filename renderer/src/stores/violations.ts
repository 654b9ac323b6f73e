/** Contract violations the players found in cloud queue responses, newest last, kept in a ring. */
import { create } from 'zustand';
import type { PlayerViolation } from '@engine-api/player-types';

const KEPT = 200;

export const useViolationStore = create<{ violations: PlayerViolation[]; add(v: PlayerViolation): void; clear(): void }>((set) => ({
  violations: [],
  add: (v) => set((s) => ({ violations: [...s.violations, v].slice(-KEPT) })),
  clear: () => set({ violations: [] }),
}));
