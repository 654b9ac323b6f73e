/**
 * One case of the conformance suite (docs/contract/console.md §8): a named unit that checks one
 * rule, makes its requests through the run's `CheckedServer`, and ends with a verdict whose
 * message says what was expected and what came back. What the contract lets a server do (ignore
 * `reason`, answer a report with 200, send fewer items than asked) is never a failure; where a
 * reasonable reading differs, a case warns and says so.
 */
import type { ConformanceCaseInfo, ConformanceOutcome } from '../api/conformance-types.js';
import type { SuiteFacts } from './facts.js';
import type { MadeUp } from './made-up.js';
import type { Answer, CheckedServer } from './server.js';

export interface CaseContext {
  server: CheckedServer;
  facts: SuiteFacts;
  /** Wall ms, for the budgets of long cases (the walk). */
  now(): number;
  /** Wall ms at which the run's deadline passes, when it has one: a case that could go on for long (the play-through) stops before it. */
  deadlineAt?: number;
  /** The values the case makes up (an itemId, a token): a replay's are those of the run replayed. */
  madeUp: MadeUp;
}

export interface Verdict {
  outcome: ConformanceOutcome;
  message: string;
  /** Answers of earlier cases this verdict rests on too (the walk's, for `item-window.ids`). */
  evidence?: readonly Answer[];
}

export interface ConformanceCase extends ConformanceCaseInfo {
  /**
   * Cases this one builds on: when one of them failed or was skipped, this one is skipped and
   * says which. They come before it in the suite.
   */
  needs?: readonly string[];
  /**
   * Cases whose facts this one reads when they have them (the first window's items, the walk's
   * ends), and goes on without: never skipped for them, but a run of some cases runs them too.
   */
  uses?: readonly string[];
  /**
   * Judges every answer of the run (the times, the 503s' Retry-After): a run of some cases runs
   * every case before it too. Alone, a replay of it sent nothing and said FIXED of "none of 0
   * answers" (audit).
   */
  readsEveryAnswer?: boolean;
  run(context: CaseContext): Promise<Verdict>;
}

export const pass = (message: string, evidence?: readonly Answer[]): Verdict => ({
  outcome: 'pass',
  message,
  evidence,
});
export const fail = (message: string, evidence?: readonly Answer[]): Verdict => ({
  outcome: 'fail',
  message,
  evidence,
});
export const warn = (message: string, evidence?: readonly Answer[]): Verdict => ({
  outcome: 'warn',
  message,
  evidence,
});
export const skip = (message: string, evidence?: readonly Answer[]): Verdict => ({
  outcome: 'skip',
  message,
  evidence,
});

/** Findings of a case that checks several things: failures first, then warnings, then notes. */
export class Findings {
  private readonly failures: string[] = [];
  private readonly warnings: string[] = [];
  private readonly notes: string[] = [];

  fail(message: string): void {
    this.failures.push(message);
  }

  warn(message: string): void {
    this.warnings.push(message);
  }

  /** Said in a passing verdict's message; changes no outcome. */
  note(message: string): void {
    this.notes.push(message);
  }

  get failed(): boolean {
    return this.failures.length > 0;
  }

  /** The verdict: fail if anything failed, warn if anything warned, else pass with `passed`. */
  verdict(passed: string, evidence?: readonly Answer[]): Verdict {
    const listed = (items: string[]) =>
      items.length > 3 ? [...items.slice(0, 3), `… and ${items.length - 3} more`] : items;
    if (this.failures.length) return fail([...listed(this.failures), ...listed(this.warnings)].join('; '), evidence);
    if (this.warnings.length) return warn([...listed(this.warnings), passed].join('; '), evidence);
    return pass([passed, ...this.notes].join('; '), evidence);
  }
}
