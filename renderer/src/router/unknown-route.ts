/**
 * An address that names no area (`#/nope`, a link from an older console) opens the default area,
 * so no address leaves the console blank; this remembers what was asked, so the frame can say so
 * rather than show OAuth without a word (audit).
 */
import { create } from 'zustand';
import { firstSegment, isAreaId, type AreaPath } from './areas';

interface UnknownRoute {
  /** The path asked for, and the area's path it was sent to instead; null when none was. */
  asked: { path: string; shown: AreaPath } | null;
  note(path: string, shown: AreaPath): void;
  clear(): void;
}

export const useUnknownRoute = create<UnknownRoute>((set) => ({
  asked: null,
  note: (path, shown) => set({ asked: { path, shown } }),
  clear: () => set({ asked: null }),
}));

/** Whether a path names no area at all: `/` and `/player/…` (an area, leniently) do. */
export function namesNoArea(path: string): boolean {
  const first = firstSegment(path);
  return first !== '' && !isAreaId(first);
}
