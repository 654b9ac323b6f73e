/**
 * How a conformance run stands, in a word, as the Check a server area (its pill, its summary) and
 * the HTML report say it: its status, but `stopped` for a run stopped from outside
 * (`conformance.runs.stop`), whose `failed` is no verdict on the server. One place, so that the UI
 * and an exported report never disagree. Pure, shared with the renderer.
 */
import type { ConformanceRunSummary } from './conformance-types.js';

export type ConformanceRunWord = 'running' | 'passed' | 'failed' | 'stopped';

export function conformanceRunWord(run: Pick<ConformanceRunSummary, 'status' | 'error'>): ConformanceRunWord {
  return run.error?.kind === 'stopped' ? 'stopped' : run.status;
}
