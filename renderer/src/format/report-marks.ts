/**
 * What a stored timePlayed report says beyond its type. v2.0 marks a skip with `skip`; from v2.2
 * players send `actions` instead (`[{"skip":[…]}]`, `[{"pause":[…]}]`: docs/reports.md), so a
 * report is read by both spellings.
 */
import type { TimePlayedReport } from '@engine-api/queue-types';

export function reportActions(report: TimePlayedReport): string[] {
  const names = new Set<string>();
  if (report.skip) names.add('skip');
  if (Array.isArray(report.actions)) {
    for (const action of report.actions) {
      if (action && typeof action === 'object') for (const name of Object.keys(action)) names.add(name);
    }
  }
  return [...names];
}

/** A report's played time or position as a track's clock shows it: `3:07`; a dash where the player sent none. */
export function playTime(ms: unknown): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '—';
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}
