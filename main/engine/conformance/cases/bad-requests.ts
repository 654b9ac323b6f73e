/**
 * Requests a server must refuse (docs/contract/platform.md §7.1, §8): an itemId the queue does not
 * have is 404 (the player then empties its queue and goes idle, §3), and a window size below zero
 * or not a whole number is 400. Nothing else passes: a 404 tells the player to empty its queue, and
 * the contract names 400 for sizes (docs/contract/console.md §8) and lists no other 4xx among its
 * warnings, so another 4xx fails too, as a window, a 5xx or no answer does.
 */
import { Findings, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { idOf, isWindow, spanOf, windowOf } from '../facts.js';
import { RULE } from '../rules.js';
import { is2xx, outcomeOf, requestLine, type Answer, type WindowAsk } from '../server.js';
import { knownIds, middleOf } from './sizes.js';

export const unknownItem: ConformanceCase = {
  id: 'item-window.unknown-item',
  rule: RULE.errors,
  title: 'An itemId the queue does not have is answered 404',
  async run({ server, madeUp }: CaseContext): Promise<Verdict> {
    const itemId = madeUp.make('no-such-item');
    const answer = await server.itemWindow({
      reason: 'skipToItem',
      itemId,
      previousWindowSize: 5,
      upcomingWindowSize: 10,
    });
    const findings = new Findings();
    // Not another 4xx: a 404 is what makes the player empty its queue and wait (§3).
    judgeRefusal(findings, answer, 404, `${itemId} is in no queue`);
    return findings.verdict(`${requestLine(answer)}: 404, as for an item that does not exist`);
  },
};

export const negativeSize: ConformanceCase = {
  id: 'item-window.negative-size',
  rule: RULE.errors,
  title: 'A negative window size is answered 400',
  async run(context: CaseContext): Promise<Verdict> {
    return refuseSizes(context, -1, 'sizes are integers zero or greater');
  },
};

export const nonIntegerSize: ConformanceCase = {
  id: 'item-window.non-integer-size',
  rule: RULE.limits,
  title: 'A window size that is not a whole number is answered 400',
  async run(context: CaseContext): Promise<Verdict> {
    // NaN goes out as the text "NaN": a size that is no number at all.
    return refuseSizes(context, [1.5, Number.NaN], 'sizes are integers');
  },
};

/** Asks once with `previousWindowSize` wrong and once with `upcomingWindowSize` wrong; each must be 400. */
async function refuseSizes(
  { server, facts }: CaseContext,
  wrong: number | [number, number],
  why: string,
): Promise<Verdict> {
  const [previous, upcoming] = Array.isArray(wrong) ? wrong : [wrong, wrong];
  const ids = knownIds(facts);
  // Around a real item when one is known: a server may ignore previousWindowSize without itemId.
  const itemId = ids ? ids[middleOf(ids)] : undefined;
  const base = { reason: 'skipToItem', ...(itemId === undefined ? {} : { itemId }) } as const;
  const asks: WindowAsk[] = [
    { ...base, previousWindowSize: previous, upcomingWindowSize: 10 },
    { ...base, previousWindowSize: 5, upcomingWindowSize: upcoming },
  ];
  const findings = new Findings();
  const lines: string[] = [];
  for (const ask of asks) {
    const answer = await server.itemWindow(ask);
    judgeRefusal(findings, answer, 400, why);
    lines.push(requestLine(answer));
  }
  return findings.verdict(`${lines.join(' and ')}: 400 each`);
}

/** `expected` and only it passes; a window, another status or no answer fails. */
function judgeRefusal(findings: Findings, answer: Answer, expected: number, why: string): void {
  const asked = requestLine(answer);
  const status = answer.status;
  if (status === expected) return;
  if (status !== undefined && is2xx(answer)) {
    const view = windowOf(answer);
    const what = isWindow(view) ? `a window of ${spanOf(view.items.map((item) => idOf(item) ?? '?'))}` : 'a body';
    findings.fail(`${asked}: expected ${expected} (${why}), got ${status} with ${what}`);
  } else {
    findings.fail(`${asked}: expected ${expected} (${why}), got ${outcomeOf(answer)}`);
  }
}
