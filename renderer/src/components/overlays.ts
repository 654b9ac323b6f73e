/**
 * Which of the frame's own dialogs is open: the command palette or the shortcut sheet (one at a
 * time). A store, because what opens them is apart from them: a key anywhere, the status bar's
 * button, the palette itself.
 */
import { create } from 'zustand';

export type Overlay = 'palette' | 'sheet';

export const useOverlays = create<{ open: Overlay | null; show(overlay: Overlay): void; close(): void }>((set) => ({
  open: null,
  show: (open) => set({ open }),
  close: () => set({ open: null }),
}));
