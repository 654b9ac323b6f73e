/** Lifetimes in words, on the engine clock: "in 23 h 59 min", "expired 4 min ago". */
import { formatEngineTime } from '../../format/engine-time';

export function formatSpan(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min${s % 60 && m < 10 ? ` ${s % 60} s` : ''}`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h${m % 60 ? ` ${m % 60} min` : ''}`;
  return `${Math.floor(h / 24)} d${h % 24 ? ` ${h % 24} h` : ''}`;
}

export function expiryText(expiresAt: number | null, now: number | null): string {
  if (expiresAt === null) return 'no expiry';
  if (now === null) return formatEngineTime(expiresAt);
  return expiresAt > now ? `expires in ${formatSpan(expiresAt - now)}` : `expired ${formatSpan(now - expiresAt)} ago`;
}
