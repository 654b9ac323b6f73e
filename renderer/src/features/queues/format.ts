/** How the editor writes durations, token lifetimes, counts and track titles (engine times: format/engine-time.ts). */
import type { Track } from '../../../../main/engine/api/queue-types';

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** "in 23 h 59 min", "expired 5 min ago": a token's lifetime on the engine clock. */
export function formatExpiry(expiresAt: number, now: number | null): string {
  if (now === null) return '';
  const ms = expiresAt - now;
  const span = formatSpan(Math.abs(ms));
  return ms > 0 ? `expires in ${span}` : `expired ${span} ago`;
}

function formatSpan(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.floor(ms / 1000))} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d`;
}

/** "1 item", "19 items", "100,000 items". */
export function plural(count: number, noun: string): string {
  return `${count.toLocaleString()} ${noun}${count === 1 ? '' : 's'}`;
}

export function trackTitle(track: Track): string {
  return track.name ?? track.mediaUrl ?? '(untitled)';
}
