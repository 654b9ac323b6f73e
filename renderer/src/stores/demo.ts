/**
 * The guided demo's panel (features/demo): open or not, and what the presenter has done so far.
 * It opens by itself on a console's first run, until it is closed once (remembered in
 * localStorage and in the engine's preferences), and on demand from the sidebar, the palette or
 * its key.
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** The localStorage key: set once the presenter closed the demo. */
export const DEMO_DISMISSED_KEY = 'cqc-demo-dismissed';
/**
 * The sessionStorage key of the ticks and marks: a reload mid-demo kept neither, so its ticked
 * steps asked to be clicked again and its "Remove the 503" was gone (audit).
 */
export const DEMO_PROGRESS_KEY = 'cqc-demo-progress';

/** The steps, in the order a presenter clicks them. */
export const DEMO_STEPS = ['signIn', 'play', 'skip', 'pause', 'reports', 'retries'] as const;
export type DemoStep = (typeof DEMO_STEPS)[number];

/** What a step's button started and what it is checked against, until the engine confirms it. */
export interface DemoMarks {
  /** The item playing when Skip was pressed: the skip is confirmed once another one plays. */
  skipFrom?: string | null;
  pauseAsked?: boolean;
  reportsAsked?: boolean;
  /** Engine time the 503 went in: the retries counted are the ones after it. */
  injectedAt?: number;
  ruleId?: string;
}

interface DemoStore {
  open: boolean;
  /**
   * Opened by itself on a first run, not by the presenter: the focus stays where the page put it
   * (ui-x3 U10: the first four Tab stops of a fresh console were the demo's, over the area).
   */
  openedByItself: boolean;
  /** Closed once, here or (as the engine's preferences say) in another browser or on another port. */
  dismissed: boolean;
  /**
   * Once the engine's preferences are known (stores/preferences.ts): opens the panel on a first
   * run, closed nowhere before, or takes the engine's word that it was closed (in another browser,
   * or on another port: another origin, with storage of its own).
   */
  firstRunKnown(dismissedElsewhere: boolean): void;
  /** Folded to its title line, so it covers next to nothing of the area behind it. */
  folded: boolean;
  setFolded(folded: boolean): void;
  /** Ticked steps: the engine confirmed them (sticky: a later pause does not untick "play"). */
  done: Partial<Record<DemoStep, true>>;
  marks: DemoMarks;
  /** The engine's start the ticks and marks are of (`EngineStateView.startId`); unknown until told. */
  start?: string;
  /**
   * The engine's start, once known: ticks and marks kept from another start are let go. A console
   * started again under an open tab (same port, same session storage) is another start, whose
   * players and rules the ticks no longer describe (review-v 6).
   */
  startKnown(startId: string): void;
  show(): void;
  /** Closes the panel, and remembers that the first run is over. */
  hide(): void;
  toggle(): void;
  tick(step: DemoStep): void;
  mark(change: DemoMarks): void;
  /** Starts over: nothing ticked. */
  reset(): void;
}

/** Whether this browser is on its first run of the console: the demo was never closed here. */
export function isFirstRun(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): boolean {
  try {
    return storage?.getItem(DEMO_DISMISSED_KEY) !== '1';
  } catch {
    return false;
  }
}

function remember(): void {
  try {
    globalThis.localStorage?.setItem(DEMO_DISMISSED_KEY, '1');
  } catch {
    // Storage refused: the demo opens again next time, which does no harm.
  }
}

export const useDemoStore = create<DemoStore>()(
  persist(
    (set) => ({
      // Opened on a first run once the engine says it is one (firstRunKnown): not before, which would
      // show it for a moment on a console where it was closed long ago.
      open: false,
      openedByItself: false,
      dismissed: !isFirstRun(),
      firstRunKnown: (dismissedElsewhere) =>
        set((s) => {
          if (s.dismissed) return s;
          if (!dismissedElsewhere) return { open: true, openedByItself: true };
          remember();
          return { dismissed: true, open: false };
        }),
      folded: false,
      setFolded: (folded) => set({ folded }),
      done: {},
      marks: {},
      show: () => set({ open: true, openedByItself: false }),
      hide: () => {
        remember();
        set({ open: false, dismissed: true });
      },
      toggle: () =>
        set((s) => {
          if (!s.open) return { open: true, openedByItself: false };
          remember();
          return { open: false, dismissed: true };
        }),
      tick: (step) => set((s) => (s.done[step] ? s : { done: { ...s.done, [step]: true } })),
      mark: (change) => set((s) => ({ marks: { ...s.marks, ...change } })),
      reset: () => set({ done: {}, marks: {} }),
      startKnown: (startId) => set((s) => (s.start === startId ? s : { start: startId, done: {}, marks: {} })),
    }),
    {
      name: DEMO_PROGRESS_KEY,
      // Per tab: another tab starts its own demo, and a console started afresh (startKnown) too.
      storage: createJSONStorage(() => sessionStorage),
      partialize: (s) => ({ done: s.done, marks: s.marks, start: s.start }),
    },
  ),
);
