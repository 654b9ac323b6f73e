/**
 * Where the user stands in the traffic log (filters, follow, the active row, the open entry, the
 * scroll position), kept outside the page so that following a transition link to the Player page
 * and coming back finds the log as it was left.
 */
import { create } from 'zustand';
import type { TrafficFilter } from '@engine-api/traffic-types';

interface TrafficView {
  filter: TrafficFilter;
  follow: boolean;
  /** The keyboard's row (an index into the filtered list). */
  active: number | null;
  /** The entry open in the detail pane. */
  opened: number | null;
  /** Of the list, when it is not following. */
  scrollTop: number;
  /** Bumped when a link sets the filters, so the filter fields take them up afresh. */
  linked: number;
  set(change: Partial<Omit<TrafficView, 'set'>>): void;
}

export const useTrafficView = create<TrafficView>((set) => ({
  filter: {},
  follow: true,
  active: null,
  opened: null,
  scrollTop: 0,
  linked: 0,
  set: (change) => set(change),
}));
