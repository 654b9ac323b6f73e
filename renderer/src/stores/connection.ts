/** Whether the renderer currently hears the engine (always, over IPC; over HTTP it can drop). */
import { create } from 'zustand';
import type { ConnectionState } from '../api';

export const useConnectionStore = create<{ state: ConnectionState; setState(state: ConnectionState): void }>((set) => ({
  state: 'connecting',
  setState: (state) => set({ state }),
}));
