/**
 * The engine clock as last pushed by the engine. Between pushes the renderer extrapolates with
 * the speed it was told, so the status bar ticks without polling.
 */
import { useEffect, useState } from 'react';
import { create } from 'zustand';
import type { ClockState } from '@engine-api/types';
import { engineDay } from '../format/engine-time';
import { useConnectionStore } from './connection';

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
  // With the engine lost, its time is not known: it stands where it was last seen (audit: it ran on).
  const lost = useConnectionStore((s) => s.lostSince !== null);
  useEffect(() => {
    if (!clock || clock.speed === 0 || lost) return;
    const interval = setInterval(() => setTickedAt(performance.now()), clock.speed > 1 ? 100 : 250);
    return () => clearInterval(interval);
  }, [clock, lost]);
  return clock && extrapolate(clock, receivedAt, Math.max(tickedAt, receivedAt));
}

/**
 * The engine's current day (`2026-11-21`): re-renders when the engine pushes its clock and at each
 * engine midnight while the clock runs (at 600× a day passes in 144 s, between pushes), not on
 * every tick as `useEngineNow` does.
 */
export function useEngineDay(): string | null {
  const clock = useClockStore((s) => s.clock);
  const receivedAt = useClockStore((s) => s.receivedAt);
  // Wall time of the mount or of the last midnight passed; a fresh push (receivedAt) wins over it.
  const [turnedAt, setTurnedAt] = useState(() => performance.now());
  const now = clock && extrapolate(clock, receivedAt, Math.max(turnedAt, receivedAt));
  useEffect(() => {
    if (!clock || clock.speed === 0 || now === null) return;
    const midnight = new Date(now);
    midnight.setHours(24, 0, 0, 0);
    const timer = setTimeout(
      () => setTurnedAt(performance.now()),
      Math.ceil((midnight.getTime() - now) / clock.speed) + 5,
    );
    return () => clearTimeout(timer);
  }, [clock, now]);
  return now === null ? null : engineDay(now);
}
