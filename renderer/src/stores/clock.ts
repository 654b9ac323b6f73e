/**
 * The engine clock as last pushed by the engine. Between pushes the renderer extrapolates with
 * the speed it was told, so the status bar ticks without polling.
 */
import { useEffect, useState } from 'react';
import { create } from 'zustand';
import type { ClockState } from '../../../main/engine/api/types';
import { engineDay } from '../format/engine-time';

interface ClockStore {
  clock: ClockState | null;
  /** performance.now() when `clock` arrived. */
  receivedAt: number;
  setClock(clock: ClockState): void;
}

export const useClockStore = create<ClockStore>((set) => ({
  clock: null,
  receivedAt: 0,
  setClock: (clock) => set({ clock, receivedAt: performance.now() }),
}));

export function extrapolate(clock: ClockState, receivedAt: number, at: number): number {
  return clock.speed === 0 ? clock.now : Math.floor(clock.now + (at - receivedAt) * clock.speed);
}

/** Engine time now, re-rendering a few times a second while the clock runs. */
export function useEngineNow(): number | null {
  const clock = useClockStore((s) => s.clock);
  const receivedAt = useClockStore((s) => s.receivedAt);
  // Wall time of the last tick; a fresh push (receivedAt) always wins over an older tick.
  const [tickedAt, setTickedAt] = useState(receivedAt);
  useEffect(() => {
    if (!clock || clock.speed === 0) return;
    const interval = setInterval(() => setTickedAt(performance.now()), clock.speed > 1 ? 100 : 250);
    return () => clearInterval(interval);
  }, [clock]);
  return clock && extrapolate(clock, receivedAt, Math.max(tickedAt, receivedAt));
}

/**
 * The engine's current day (`2026-11-21`) as of the last push: re-renders only when the day
 * changes, not on every tick. A midnight passed since the push shows today's moments with their
 * date, which is still true.
 */
export function useEngineDay(): string | null {
  return useClockStore((s) => (s.clock ? engineDay(s.clock.now) : null));
}
