/** How the editor writes durations, counts and track titles (engine times and lifetimes: format/). */
import type { Track } from '@engine-api/queue-types';

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

export function trackTitle(track: Track): string {
  return track.name ?? track.mediaUrl ?? '(untitled)';
}
