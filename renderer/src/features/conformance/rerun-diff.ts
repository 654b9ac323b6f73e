/**
 * What a rerun says of the run it reruns: "did my fix work?" (ui-x3 U8: a rerun was a new run
 * with nothing comparing it to the old one). The failing cases of the run before, each fixed
 * (passes or only warns now), still failing, or not judged (skipped, or not run: the rerun ended
 * first); and the cases that fail now and did not before. As `check --replay` says it, per case.
 */
import type { ConformanceRun } from '@engine-api/conformance-types';

export interface RerunDiff {
  fixed: string[];
  stillFailing: string[];
  notJudged: string[];
  /** Passed or warned before, fail now. */
  newlyFailing: string[];
  /** Fail now, and were not judged before (skipped, or the run before ended first). */
  failingNotJudgedBefore: string[];
}

export function rerunDiff(before: Pick<ConformanceRun, 'cases'>, after: Pick<ConformanceRun, 'cases'>): RerunDiff {
  const now = new Map(after.cases.map((result) => [result.id, result.outcome]));
  const then = new Map(before.cases.map((result) => [result.id, result.outcome]));
  const failedBefore = new Set(before.cases.filter((result) => result.outcome === 'fail').map((result) => result.id));
  const diff: RerunDiff = { fixed: [], stillFailing: [], notJudged: [], newlyFailing: [], failingNotJudgedBefore: [] };
  for (const id of failedBefore) {
    const outcome = now.get(id);
    if (outcome === 'pass' || outcome === 'warn') diff.fixed.push(id);
    else if (outcome === 'fail') diff.stillFailing.push(id);
    else diff.notJudged.push(id);
  }
  for (const result of after.cases) {
    if (result.outcome !== 'fail' || failedBefore.has(result.id)) continue;
    const was = then.get(result.id);
    // A case skipped or never run before had no verdict to lose (review).
    if (was === 'pass' || was === 'warn') diff.newlyFailing.push(result.id);
    else diff.failingNotJudgedBefore.push(result.id);
  }
  return diff;
}

/** The diff in a line: "2 fixed: a, b · 1 still failing: c"; null when neither run failed a case. */
export function rerunDiffText(diff: RerunDiff): string | null {
  const parts = (
    [
      [diff.fixed, 'fixed'],
      [diff.stillFailing, 'still failing'],
      [diff.newlyFailing, 'failing now, not before'],
      [diff.failingNotJudgedBefore, 'failing, not judged before'],
      [diff.notJudged, 'not judged this time'],
    ] as const
  )
    .filter(([ids]) => ids.length > 0)
    .map(([ids, word]) => `${ids.length} ${word}: ${ids.join(', ')}`);
  return parts.length ? parts.join(' · ') : null;
}
