/**
 * The areas of the console, each a route (`#/traffic`) and one keystroke away (1–8). The order is
 * the sidebar's and the keys'.
 */
export const AREAS = [
  { id: 'oauth', label: 'OAuth', key: '1' },
  { id: 'queues', label: 'Queues', key: '2' },
  { id: 'player', label: 'Player', key: '3' },
  { id: 'traffic', label: 'Traffic', key: '4' },
  { id: 'faults', label: 'Faults', key: '5' },
  { id: 'api', label: 'API', key: '6' },
  { id: 'conformance', label: 'Check a server', key: '7' },
  { id: 'fleet', label: 'Fleet', key: '8' },
] as const;

export type AreaId = (typeof AREAS)[number]['id'];

/** The path of an area's route. */
export type AreaPath = `/${AreaId}`;

export const DEFAULT_AREA: AreaId = 'oauth';

export function isAreaId(value: string): value is AreaId {
  return AREAS.some((a) => a.id === value);
}

export function areaLabel(id: AreaId): string {
  return AREAS.find((a) => a.id === id)!.label;
}

/**
 * The area a path names by its first segment, leniently: `/player/player-kitchen`, `traffic` (an
 * old bookmark written without the slash) and `/` find their area or the first one, so no
 * address leaves the console blank.
 */
export function areaOfPath(path: string): AreaId {
  const id = firstSegment(path);
  return isAreaId(id) ? id : DEFAULT_AREA;
}

/** A path's first segment, with or without its `#` and slash: `traffic` of `#/traffic?entry=1`. */
export function firstSegment(path: string): string {
  return path.replace(/^#?\/?/, '').split(/[/?#]/)[0] ?? '';
}
