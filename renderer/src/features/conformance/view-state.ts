/**
 * The run open in the area is the address (`#/conformance?run=<id>`), so a reload or a link opens
 * it, and following an evidence link to the Traffic area and coming back (Back, or the area's key)
 * finds the same run open. Null: the newest run.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { useAreaPlace } from '../../router/area-memory';

const route = getRouteApi('/conformance');

export function useConformanceView(): { selected: string | null; select(id: string | null): void } {
  const selected = route.useSearch().run ?? null;
  const area = useAreaPlace('conformance');
  // A run started here may be selected once the user has left the area: it opens when they come back.
  const select = useCallback((id: string | null) => area.go({ run: id ?? undefined }), [area]);
  return { selected, select };
}
