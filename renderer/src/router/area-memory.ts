/**
 * Where each area was last left: opening an area from the sidebar, a number key or the palette
 * goes back to its last address (the traffic log's filters and open entry, the player shown), as
 * the areas' own stores did before the address held that state. A link goes where it points.
 */
import { useNavigate, useRouter, useRouterState } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo } from 'react';
import { create } from 'zustand';
import { areaOfPath, isAreaId, type AreaId } from './areas';
import type { AreaSearch } from './search';

interface AreaMemory {
  searches: Partial<Record<AreaId, object>>;
  remember(area: AreaId, search: object): void;
}

export const useAreaMemory = create<AreaMemory>((set) => ({
  searches: {},
  remember: (area, search) => set((s) => ({ searches: { ...s.searches, [area]: search } })),
}));

/** The area of the current address. */
export function useCurrentArea(): AreaId {
  return useRouterState({ select: (s) => areaOfPath(s.location.pathname) });
}

/** Keeps each area's last address as the user moves (the frame calls it once). */
export function useRememberAreas(): void {
  const location = useRouterState({ select: (s) => s.location });
  useEffect(() => {
    const area = location.pathname.slice(1);
    if (isAreaId(area)) useAreaMemory.getState().remember(area, location.search);
  }, [location]);
}

/** Opens an area where it was left. */
export function useOpenArea(): (area: AreaId) => void {
  const navigate = useNavigate();
  return useCallback(
    // `to` is any area, so the router cannot type `search` for it; each area's schema reads the
    // remembered search again on arrival, and drops what it cannot use.
    (area: AreaId) =>
      void navigate({ to: `/${area}`, search: (useAreaMemory.getState().searches[area] ?? {}) as never }),
    [navigate],
  );
}

/**
 * An area's place as its own page reads and changes it: while the area is open, the address
 * (changed in place: Back leaves the area rather than undoing one choice); once it is left (a
 * flow that finished starting, text typed just before leaving), where the area will reopen, so
 * nothing pulls the user back.
 */
export function useAreaPlace<A extends AreaId>(area: A): { current(): AreaSearch[A]; go(next: AreaSearch[A]): void } {
  const router = useRouter();
  return useMemo(() => {
    const isOpen = () => router.state.location.pathname === `/${area}`;
    return {
      current: () =>
        (isOpen() ? router.state.location.search : (useAreaMemory.getState().searches[area] ?? {})) as AreaSearch[A],
      go: (next) => {
        if (isOpen()) void router.navigate({ to: `/${area}`, search: next as never, replace: true });
        else useAreaMemory.getState().remember(area, next);
      },
    };
  }, [router, area]);
}
