/** Whether the renderer currently hears the engine (always, over IPC; over HTTP it can drop). */
import { create } from 'zustand';
import type { ConnectionState } from '../api';

export const useConnectionStore = create<{
  state: ConnectionState;
  /** Wall time the engine was lost (ms), while it is (restarted: since it was lost); null while it is heard. */
  lostSince: number | null;
  setState(state: ConnectionState): void;
}>((set) => ({
  state: 'connecting',
  lostSince: null,
  setState: (state) =>
    set((prev) => ({
      state,
      lostSince: state === 'reconnecting' || state === 'restarted' ? (prev.lostSince ?? Date.now()) : null,
    })),
}));
