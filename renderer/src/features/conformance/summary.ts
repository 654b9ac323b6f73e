/**
 * A run in words: the summary line under its title, the short tallies of the runs list, the
 * progress of a run going on, how long it took, and which server it checked.
 */
import type { ConformanceOutcome, ConformanceRunSummary, ConformanceSummary } from '@engine-api/conformance-types';
import { conformanceRunWord, type ConformanceRunWord } from '@engine-api/conformance-word';

/** An outcome as its badge says it: in words, never by colour alone. */
export const OUTCOME_LABEL: Record<ConformanceOutcome, string> = {
  pass: 'pass',
  fail: 'fail',
  warn: 'warn',
  skip: 'skip',
};
/** A glyph beside the word, for a glance down the column. */
export const OUTCOME_MARK: Record<ConformanceOutcome, string> = { pass: '✓', fail: '✕', warn: '!', skip: '–' };

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Cases settled so far. */
export function settledCount(summary: ConformanceSummary): number {
  return summary.pass + summary.fail + summary.warn + summary.skip;
}

/** "15 passed, 1 failed, 1 warning, 0 skipped": every tally, zero ones included, so the line reads the same on every run. */
export function tallyText(summary: ConformanceSummary): string {
  return `${summary.pass} passed, ${summary.fail} failed, ${count(summary.warn, 'warning')}, ${summary.skip} skipped`;
}

/** For the runs list, where space is short: "17 pass" or "14 pass · 1 fail · 2 warn"; the zeros left out. */
export function shortTallyText(summary: ConformanceSummary): string {
  const parts = (['pass', 'fail', 'warn', 'skip'] as const)
    .filter((outcome) => summary[outcome] > 0)
    .map((outcome) => `${summary[outcome]} ${outcome}`);
  return parts.length ? parts.join(' · ') : 'no cases';
}

/** Wall time a run took: "0.4 s", "12.3 s", "2 min 5 s"; null while it runs. */
export function durationText(run: Pick<ConformanceRunSummary, 'startedAt' | 'finishedAt'>): string | null {
  if (run.finishedAt === null) return null;
  const ms = Math.max(0, run.finishedAt - run.startedAt);
  // "in 0.0 s" for a run refused at once (review).
  if (ms < 50) return 'under 0.1 s';
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min${seconds % 60 ? ` ${seconds % 60} s` : ''}`;
}

/** "5 of 17 cases". */
export function progressText(summary: ConformanceSummary): string {
  return `${settledCount(summary)} of ${count(summary.total, 'case')}`;
}

const VERDICT: Record<Exclude<ConformanceRunWord, 'running'>, string> = {
  passed: 'Passed',
  failed: 'Failed',
  stopped: 'Stopped',
};

/**
 * The summary line: how it ended and the tallies, how long it took, the server. A run that never
 * reached its cases says so instead of tallying nothing.
 */
export function summaryLine(run: ConformanceRunSummary): string {
  const server = `server ${run.baseUrl}`;
  const word = conformanceRunWord(run);
  if (word === 'running')
    return `Running: ${progressText(run.summary)} settled, ${tallyText(run.summary)} so far · ${server}`;
  const took = durationText(run);
  const verdict = VERDICT[word];
  // Unreachable is also a server that answered as no cloud queue server does (404s at a site's
  // root): "could not be reached" was untrue there, and so was "no cloud queue server answered"
  // beside a 404 (review); the line below says which.
  const what =
    run.error?.kind === 'unreachable'
      ? `${unreachableWord(run.error.message) === 'unreachable' ? 'no server answered' : 'no cloud queue found'} at this URL, no case ran`
      : `${tallyText(run.summary)} of ${count(run.summary.total, 'case')}`;
  return [`${verdict}: ${what}`, took && `in ${took}`, server].filter(Boolean).join(' · ');
}

/** The server as the runs list shows it: host and path, without the scheme. */
export function serverLabel(baseUrl: string): string {
  if (!URL.canParse(baseUrl)) return baseUrl;
  const url = new URL(baseUrl);
  return `${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/**
 * A server label split where it may be cut: the tail is its last two segments (the queue and the
 * version, `queue-5f34/v2.3/`), which tell one server of a host from the next, so they give way last.
 */
export function serverLabelParts(label: string): { head: string; tail: string } {
  const trimmed = label.endsWith('/') ? label.slice(0, -1) : label;
  const last = trimmed.lastIndexOf('/');
  const cut = last <= 0 ? 0 : trimmed.lastIndexOf('/', last - 1) + 1;
  return { head: label.slice(0, cut), tail: label.slice(cut) };
}

/**
 * A run that reached no case, in a word: `unreachable` when nothing answered (the engine's message
 * begins "cannot reach"), `no queue found` when a server answered as no cloud queue does (a site's
 * 404s). The list said "unreachable" of both (review).
 */
export function unreachableWord(message: string): 'unreachable' | 'no queue found' {
  return message.startsWith('cannot reach') ? 'unreachable' : 'no queue found';
}
