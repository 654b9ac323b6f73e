/**
 * Answers slower than 1 s are warnings (docs/contract/console.md §8): the player waits 10 s before
 * it calls a request incomplete, but a user waits for a skip's window. Judged last, over every
 * answer of the run (wall time, from request to the end of the body).
 */
import { pass, skip, warn, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { SLOW_MS } from '../heard.js';
import { RULE } from '../rules.js';
import { requestLine } from '../server.js';

export const answerTimes: ConformanceCase = {
  id: 'timing',
  rule: RULE.suite,
  title: 'Every answer comes within 1 s',
  readsEveryAnswer: true,
  async run({ facts }: CaseContext): Promise<Verdict> {
    const { heard } = facts;
    if (heard.slowCount) {
      const shown = heard.slow
        .slice(0, 3)
        // In ms: "took 1.0 s" of an answer over the 1 s bound read as the bound itself (audit Y10);
        // and up, not to the nearest: 1,000.4 ms is over it, and "1,000 ms" read as on it (review).
        .map(
          (answer) => `${requestLine(answer)} took ${Math.ceil(answer.exchange.latencyMs).toLocaleString('en-US')} ms`,
        );
      const more = heard.slowCount > 3 ? `, and ${heard.slowCount - 3} more` : '';
      return warn(
        `${heard.slowCount} of ${heard.answered} answers took more than ${SLOW_MS / 1000} s: ${shown.join('; ')}${more}`,
        heard.slow,
      );
    }
    // No answer came whole: nothing was timed, and a pass would say every answer was quick.
    if (heard.answered === 0) return skip('no answer came whole: there is nothing to time');
    return pass(`${heard.answered} answers, the slowest in ${heard.slowest} ms`, []);
  },
};
