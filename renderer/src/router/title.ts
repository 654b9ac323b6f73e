/**
 * The tab title names the place (`Traffic · entry 12 — Cloud Queue Console`), so a window list,
 * the history menu and a bookmark tell the places apart.
 */
import { areaLabel, type AreaId } from './areas';

export const APP_NAME = 'Cloud Queue Console';

export function tabTitle(area: AreaId, detail?: string | null): string {
  return `${areaLabel(area)}${detail ? ` · ${detail}` : ''} — ${APP_NAME}`;
}

/** A request id as the filter chip shows it: its first 8 characters are enough to tell it apart. */
export function shortRequestId(requestId: string): string {
  return requestId.length > 8 ? requestId.slice(0, 8) : requestId;
}
