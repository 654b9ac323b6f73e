/**
 * How a conformance run stands, in a word, as the Check a server area (its pill, its summary) and
 * the HTML report say it: its status, but `stopped` for a run stopped from outside
 * (`conformance.runs.stop`) before any case failed, whose `failed` is no verdict on the server. One place, so that the UI
 * and an exported report never disagree. Pure, shared with the renderer.
 */
import type { ConformanceRunSummary } from './conformance-types.js';

export type ConformanceRunWord = 'running' | 'passed' | 'failed' | 'stopped';

export function conformanceRunWord(
  run: Pick<ConformanceRunSummary, 'status' | 'error' | 'summary'>,
): ConformanceRunWord {
  // A case it failed before the stop is a verdict on the server all the same (review).
  return run.error?.kind === 'stopped' && run.summary.fail === 0 ? 'stopped' : run.status;
}
