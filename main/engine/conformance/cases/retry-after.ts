/**
 * A 503 carries `Retry-After` (docs/contract/platform.md §7.1, §7.2): the player waits the time it
 * names, clamped to 2–10 s; without it the player waits the least, 2 s, and a server that is
 * struggling gets its retries at the worst moment. Judged over every answer of the run, the
 * play-through's included; a warning, never a failure. A 503 the console's own fault rules made
 * is not the server's.
 */
import { pass, warn, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { RULE } from '../rules.js';
import { requestLine } from '../server.js';

export const retryAfter: ConformanceCase = {
  id: 'errors.retry-after',
  rule: RULE.retry,
  title: 'Every 503 carries Retry-After',
  readsEveryAnswer: true,
  async run({ facts }: CaseContext): Promise<Verdict> {
    const { busy, busyCount, bare, bareCount, total } = facts.heard;
    if (bareCount) {
      const shown = bare.slice(0, 3).map((answer) => {
        const given = answer.exchange.responseHeaders?.['retry-after'];
        return `${requestLine(answer)}${given ? ` with Retry-After: ${JSON.stringify(given)}` : ''}`;
      });
      const more = bareCount > 3 ? `, and ${bareCount - 3} more` : '';
      return warn(
        `${bareCount} of ${busyCount} answers 503 came without a Retry-After a player can read (${shown.join('; ')}${more}): expected Retry-After on every 503, as seconds or an HTTP-date, so that a player waits as long as the server needs (it waits 2 s without one)`,
        bare,
      );
    }
    if (busyCount) return pass(`${busyCount} answers 503, each with Retry-After`, busy);
    return pass(`none of ${total} answers was 503`, []);
  },
};
