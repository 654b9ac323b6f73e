/**
 * Spans of engine time in words, one module for every area: lifetimes ("in 23 h 59 min",
 * "expired 4 min ago") rounded as people say them, and exact spans ("10 min 31 s") for what a
 * scenario run took.
 */
import { formatEngineTime } from './engine-time';

/** A lifetime: seconds only under 10 minutes, minutes under 48 hours, then days and hours. */
export function formatLifetime(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min${s % 60 && m < 10 ? ` ${s % 60} s` : ''}`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h${m % 60 ? ` ${m % 60} min` : ''}`;
  return `${Math.floor(h / 24)} d${h % 24 ? ` ${h % 24} h` : ''}`;
}

/** A measured span, to the second under an hour: "10 min 31 s", "2 h 5 min". */
export function formatExactSpan(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** A token's or code's lifetime at engine time `now` (null: not known yet, so the moment itself). */
export function expiryText(expiresAt: number | null, now: number | null): string {
  if (expiresAt === null) return 'no expiry';
  if (now === null) return formatEngineTime(expiresAt);
  return expiresAt > now
    ? `expires in ${formatLifetime(expiresAt - now)}`
    : `expired ${formatLifetime(now - expiresAt)} ago`;
}
