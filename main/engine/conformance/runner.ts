/**
 * Runs the suite's cases one after another against one server and hands each verdict on as it
 * settles. A case whose needs failed or were skipped is skipped with the reason. A server that
 * answers neither GET /context nor GET /itemWindow at all (no connection, no answer in 10 s)
 * ends the run before any case settles, with that one message (docs/contract/console.md §8).
 */
import type { ConformanceCaseInfo, ConformanceOutcome } from '../api/conformance-types.js';
import { messageOf } from '../api/errors.js';
import type { CaseContext, ConformanceCase, Verdict } from './case.js';
import { isWindow, newFacts, windowOf } from './facts.js';
import { FIRST_WINDOW_ASK } from './cases/window.js';
import type { Answer, CheckedServer } from './server.js';
import { SUITE } from './suite.js';

export interface SettledCase extends ConformanceCaseInfo {
  outcome: ConformanceOutcome;
  message: string;
  /** The answers the verdict rests on, oldest first. */
  evidence: Answer[];
  durationMs: number;
}

export type SuiteResult = { unreachable: string } | { cases: SettledCase[] } | { stopped: true; cases: SettledCase[] };

export interface SuiteRunOptions {
  /** Builds the server the cases talk to, reporting each answer to `onAnswer`. */
  server: (onAnswer: (answer: Answer) => void) => CheckedServer;
  /** Wall ms. */
  now(): number;
  onSettled?: (settled: SettledCase) => void;
  /** Checked between cases: an engine that closes stops its runs. */
  signal?: AbortSignal;
  cases?: readonly ConformanceCase[];
}

export async function runSuite(options: SuiteRunOptions): Promise<SuiteResult> {
  const cases = options.cases ?? SUITE;
  const facts = newFacts();
  let during: Answer[] = [];
  const server = options.server((answer) => {
    during.push(answer);
    facts.answers.push(answer);
    const view = windowOf(answer);
    if (isWindow(view)) facts.windows.push(view);
  });
  const context: CaseContext = { server, facts, now: options.now };
  const settled: SettledCase[] = [];
  const outcomes = new Map<string, ConformanceOutcome>();

  for (const [index, unit] of cases.entries()) {
    if (options.signal?.aborted) return { stopped: true, cases: settled };
    during = [];
    const started = options.now();
    const verdict = await judge(unit, context, outcomes);
    // Its requests were cut short by the console closing: that verdict would blame the server.
    if (options.signal?.aborted) return { stopped: true, cases: settled };
    const own = during;
    if (index === 0) {
      during = [];
      const unreachable = await unreachableBecause(server, own);
      if (unreachable) return { unreachable };
    }
    const result: SettledCase = {
      id: unit.id,
      rule: unit.rule,
      title: unit.title,
      outcome: verdict.outcome,
      message: verdict.message,
      evidence: [...(verdict.evidence ?? own)].sort((a, b) => a.exchange.startedAt - b.exchange.startedAt),
      durationMs: Math.round(options.now() - started),
    };
    outcomes.set(unit.id, result.outcome);
    settled.push(result);
    options.onSettled?.(result);
  }
  return { cases: settled };
}

async function judge(unit: ConformanceCase, context: CaseContext, outcomes: Map<string, ConformanceOutcome>): Promise<Verdict> {
  const unmet = (unit.needs ?? []).filter((id) => outcomes.get(id) !== 'pass' && outcomes.get(id) !== 'warn');
  if (unmet.length) {
    const why = unmet.map((id) => `${id} ${outcomes.get(id) === 'skip' ? 'was skipped' : outcomes.has(id) ? 'failed' : 'did not run'}`);
    return { outcome: 'skip', message: `skipped: it builds on ${unmet.join(', ')}, and ${why.join(', ')}`, evidence: [] };
  }
  try {
    return await unit.run(context);
  } catch (error) {
    // A bug of the suite, not of the server: said as such, and visible as a failure.
    return { outcome: 'fail', message: `the suite itself failed on this case (please report it): ${messageOf(error)}` };
  }
}

/**
 * The first case's requests all went unanswered: one more try at GET /itemWindow tells a server
 * that is not there from one whose /context alone fails.
 */
async function unreachableBecause(server: CheckedServer, answers: readonly Answer[]): Promise<string | null> {
  if (answers.length === 0 || answers.some((answer) => answer.status !== undefined)) return null;
  const probe = await server.itemWindow(FIRST_WINDOW_ASK);
  if (probe.status !== undefined) return null;
  return `cannot reach the cloud queue server at ${server.baseUrl}: ${answers[0]!.failure}`;
}
