/**
 * Requests a server must refuse (docs/contract/platform.md §7.1, §8): an itemId the queue does not
 * have is 404 (the player then empties its queue and goes idle, §3), and a window size below zero
 * or not a whole number is 400. Nothing else passes: a 404 tells the player to empty its queue, and
 * the contract names 400 for sizes (docs/contract/console.md §8) and lists no other 4xx among its
 * warnings, so another 4xx fails too, as a window, a 5xx or no answer does.
 */
import { Findings, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { idOf, isWindow, spanOf, windowOf } from '../facts.js';
import { GoneItems, goneSaid } from '../gone-items.js';
import { RULE } from '../rules.js';
import { is2xx, outcomeOf, requestLine, type Answer, type WindowAsk } from '../server.js';
import { knownIds, middleOf } from './sizes.js';
import { REASONS, WITHOUT_ITEM } from './reasons.js';
import type { ItemWindowReason } from '../../cloud-queue/reasons.js';

/**
 * Every reason a player sends with `itemId` (all but a load's): the seed's rule names no reason, and
 * a server that answers 404 only to `skipToItem` would hand a player refreshing or skipping from
 * an item gone from the queue a window of other items instead of sending it idle.
 */
const WITH_ITEM: readonly ItemWindowReason[] = [
  // The reason that names the item as the one to play: first, as the message's example.
  'skipToItem',
  ...REASONS.filter((reason) => reason !== 'skipToItem' && !WITHOUT_ITEM.has(reason)),
];

export const unknownItem: ConformanceCase = {
  id: 'item-window.unknown-item',
  rule: RULE.errors,
  title: 'An itemId the queue does not have is answered 404, whatever the reason',
  uses: ['item-window.first'],
  async run({ server, madeUp, facts }: CaseContext): Promise<Verdict> {
    const itemId = madeUp.make('no-such-item');
    const known = knownIds(facts)?.[0];
    const findings = new Findings();
    const answers: Answer[] = [];
    const wrong: Answer[] = [];
    for (const reason of WITH_ITEM) {
      const ask = { reason, itemId, previousWindowSize: 5, upcomingWindowSize: 10 };
      const answer = await server.itemWindow(ask);
      answers.push(answer);
      if (answer.status === 404) continue;
      // Another error to a reason the server refuses even around an item it has is that reason
      // refused (item-window.reasons says so), not an unknown item misjudged.
      if (reason !== 'skipToItem' && !is2xx(answer)) {
        if (known === undefined) continue;
        const around = await server.itemWindow({ ...ask, itemId: known });
        if (!isWindow(windowOf(around))) continue;
      }
      wrong.push(answer);
    }
    // Not another 4xx: a 404 is what makes the player empty its queue and wait (§3). The first
    // wrong answer said whole, the others by reason, those that came the same way together.
    const byGot = new Map<string, Answer[]>();
    for (const answer of wrong) {
      const got = refusalGot(answer, 404)!;
      byGot.set(got, [...(byGot.get(got) ?? []), answer]);
    }
    for (const [got, same] of byGot) {
      const [first, ...rest] = same;
      const also = rest.length
        ? `; the same for reason=${rest.map((answer) => answer.exchange.reason ?? '?').join(', ')}`
        : '';
      findings.fail(`${requestLine(first!)}: expected 404 (${itemId} is in no queue), got ${got}${also}`);
    }
    return findings.verdict(
      `${answers.length} windows asked around ${itemId}, one for each reason sent with an itemId (${WITH_ITEM.join(', ')}): 404 each, as for an item that does not exist`,
      wrong.length ? wrong : answers,
    );
  },
};

export const negativeSize: ConformanceCase = {
  id: 'item-window.negative-size',
  rule: RULE.errors,
  title: 'A negative window size is answered 400',
  // Around the first window's middle item: a replay of this case alone asks what the run asked (audit).
  uses: ['item-window.first'],
  async run(context: CaseContext): Promise<Verdict> {
    return refuseSizes(context, -1, 'sizes are integers zero or greater');
  },
};

export const nonIntegerSize: ConformanceCase = {
  id: 'item-window.non-integer-size',
  rule: RULE.limits,
  title: 'A window size that is not a whole number is answered 400',
  uses: ['item-window.first'],
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
  const gone = new GoneItems(server, facts.sightings);
  for (const ask of asks) {
    const answer = await server.itemWindow(ask);
    // A server may look the item up before the sizes: an edit that took it away earns the 404.
    const edited = await gone.after(answer, ask.itemId);
    if (edited) {
      findings.warn(goneSaid(edited, 'so whether the sizes are refused is not judged'));
      continue;
    }
    judgeRefusal(findings, answer, 400, why);
    lines.push(requestLine(answer));
  }
  return findings.verdict(lines.length ? `${lines.join(' and ')}: 400 each` : 'no size judged');
}

/** `expected` and only it passes; a window, another status or no answer fails. */
function judgeRefusal(findings: Findings, answer: Answer, expected: number, why: string): void {
  const got = refusalGot(answer, expected);
  if (got) findings.fail(`${requestLine(answer)}: expected ${expected} (${why}), got ${got}`);
}

/** What came instead of `expected`, in a few words; null when it came. */
function refusalGot(answer: Answer, expected: number): string | null {
  const status = answer.status;
  if (status === expected) return null;
  if (status !== undefined && is2xx(answer)) {
    const view = windowOf(answer);
    const what = isWindow(view) ? `a window of ${spanOf(view.items.map((item) => idOf(item) ?? '?'))}` : 'a body';
    return `${status} with ${what}`;
  }
  return outcomeOf(answer);
}
