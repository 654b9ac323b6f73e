/**
 * Answers slower than 1 s are warnings (docs/contract/console.md §8): the player waits 10 s before
 * it calls a request incomplete, but a user waits for a skip's window. Judged last, over every
 * answer of the run (wall time, from request to the end of the body).
 */
import { pass, warn, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { RULE } from '../rules.js';
import { requestLine } from '../server.js';

export const SLOW_MS = 1_000;

export const answerTimes: ConformanceCase = {
  id: 'timing',
  rule: RULE.suite,
  title: 'Every answer comes within 1 s',
  async run({ facts }: CaseContext): Promise<Verdict> {
    const answered = facts.answers.filter((answer) => answer.status !== undefined);
    const slow = answered
      .filter((answer) => answer.exchange.latencyMs > SLOW_MS)
      .sort((a, b) => b.exchange.latencyMs - a.exchange.latencyMs);
    if (slow.length) {
      const shown = slow
        .slice(0, 3)
        .map((answer) => `${requestLine(answer)} took ${(answer.exchange.latencyMs / 1000).toFixed(1)} s`);
      const more = slow.length > 3 ? `, and ${slow.length - 3} more` : '';
      return warn(
        `${slow.length} of ${answered.length} answers took more than ${SLOW_MS / 1000} s: ${shown.join('; ')}${more}`,
        slow,
      );
    }
    // Not Math.max(...): a whole play's answers are more arguments than a call takes.
    const slowest = answered.reduce((most, answer) => Math.max(most, answer.exchange.latencyMs), 0);
    return pass(`${answered.length} answers, the slowest in ${slowest} ms`, []);
  },
};
