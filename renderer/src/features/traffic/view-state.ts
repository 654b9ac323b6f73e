/**
 * How the user reads the traffic log (follow, the keyboard's row, the scroll position), kept
 * outside the page so that a visit to another area and back finds the log as it was left. What
 * the log shows (its filters, the open entry) is in the address (router/search.ts), not here.
 */
import { create } from 'zustand';

interface TrafficView {
  follow: boolean;
  /** The keyboard's row (an index into the filtered list). */
  active: number | null;
  /** Of the list, when it is not following. */
  scrollTop: number;
  /**
   * The place (filters and open entry) the page last showed or wrote itself. An address that is
   * not it was followed from outside (a link, a reload, Back, the palette): its entry is found
   * in the list, and the filter fields take its values afresh.
   */
  shown: string | null;
  /** Bumped when an address from outside sets the filters, so the filter fields take them up afresh. */
  linked: number;
  /** A row to bring to the middle of the list once (a linked entry, found): its index and a fresh nonce. */
  reveal: { index: number; nonce: number } | null;
  set(change: Partial<Omit<TrafficView, 'set'>>): void;
}

export const useTrafficView = create<TrafficView>((set) => ({
  follow: true,
  active: null,
  scrollTop: 0,
  shown: null,
  linked: 0,
  reveal: null,
  set: (change) => set(change),
}));
