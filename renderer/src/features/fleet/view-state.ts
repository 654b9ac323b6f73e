/**
 * The fleet shown in the area is the address (`#/fleet?fleet=<id>`), so a reload or a link opens
 * it, and following a violation's sample to the Traffic area and coming back finds it again.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { useAreaPlace } from '../../router/area-memory';

const route = getRouteApi('/fleet');

export function useFleetView(): { shown: string | null; show(id: string | null): void } {
  const shown = route.useSearch().fleet ?? null;
  const area = useAreaPlace('fleet');
  const show = useCallback((id: string | null) => area.go({ fleet: id ?? undefined }), [area]);
  return { shown, show };
}
