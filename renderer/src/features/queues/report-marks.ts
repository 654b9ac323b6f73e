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
