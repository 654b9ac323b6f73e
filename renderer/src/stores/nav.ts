/**
 * Which area of the console is open. Mirrored in the location hash so a reload, a bookmark or a
 * link in a bug report opens the same area.
 */
import { create } from 'zustand';

export const AREAS = [
  { id: 'oauth', label: 'OAuth', key: '1' },
  { id: 'queues', label: 'Queues', key: '2' },
  { id: 'player', label: 'Player', key: '3' },
  { id: 'traffic', label: 'Traffic', key: '4' },
  { id: 'faults', label: 'Faults', key: '5' },
  { id: 'api', label: 'API', key: '6' },
  { id: 'conformance', label: 'Check a server', key: '7' },
] as const;

export type AreaId = (typeof AREAS)[number]['id'];

export function areaFromHash(hash: string): AreaId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return AREAS.find((a) => a.id === id)?.id ?? 'oauth';
}

export const useNavStore = create<{ area: AreaId; open(area: AreaId): void }>((set) => ({
  area: typeof window === 'undefined' ? 'oauth' : areaFromHash(window.location.hash),
  open: (area) => {
    if (typeof window !== 'undefined' && areaFromHash(window.location.hash) !== area) window.location.hash = `/${area}`;
    set({ area });
  },
}));
