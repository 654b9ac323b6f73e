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
import { is2xx, outcomeOf, requestLine, type Answer } from '../server.js';
import { knownIds, middleOf } from './sizes.js';
import { reasonsFor, SKIPS, WITHOUT_ITEM } from './reasons.js';
import type { ItemWindowReason } from '../../cloud-queue/reasons.js';

/** The reasons a player sends to `baseUrl`, `skipToItem` first: the reason that names the item as the one to play, the messages' example. */
function skipToItemFirst(baseUrl: string): readonly ItemWindowReason[] {
  return ['skipToItem', ...reasonsFor(baseUrl).filter((reason) => reason !== 'skipToItem')];
}

/**
 * Every reason, a load's too: the seed's rule names no reason, and a server that answers 404 only
 * to `skipToItem` would hand a player refreshing or skipping from an item gone from the queue a
 * window of other items instead of sending it idle. A load that names an item (`loadCloudQueue`'s
 * `itemId`, a stale deep link) sends it with `load`, and one answered 200 plays other tracks
 * instead of failing (audit AB-1).
 */
const withItem = skipToItemFirst;

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
    const reasons = withItem(server.baseUrl);
    for (const reason of reasons) {
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
    // Not another 4xx: a 404 is what makes the player empty its queue and wait (§3).
    failGrouped(
      findings,
      wrong.map((answer) => ({
        answer,
        as: answer.exchange.reason ?? '?',
        got: `expected 404 (${itemId} is in no queue), got ${refusalGot(answer, 404)!}`,
      })),
    );
    return findings.verdict(
      `${answers.length} windows asked around ${itemId}, one for each reason (${reasons.join(', ')}): 404 each, as for an item that does not exist`,
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

/**
 * Asks with a window size wrong for every reason (with the `itemId` a player sends it with): each
 * must be 400. A reason often has a handler of its own,
 * and one that read a negative size as 0 passed when only `skipToItem` was asked (audit). Another
 * error to a reason the server refuses even when asked right is that reason refused
 * (`item-window.reasons` says so), not a size misjudged; `skipToItem`, asked first, is held to 400
 * whatever it answers otherwise.
 */
async function refuseSizes(
  { server, facts }: CaseContext,
  wrong: number | [number, number],
  why: string,
): Promise<Verdict> {
  const [previous, upcoming] = Array.isArray(wrong) ? wrong : [wrong, wrong];
  const ids = knownIds(facts);
  // Around a real item when one is known: a server may ignore previousWindowSize without itemId.
  const itemId = ids ? ids[middleOf(ids)] : undefined;
  const findings = new Findings();
  const asked: Answer[] = [];
  const misjudged: Misjudged[] = [];
  const gone = new GoneItems(server, facts.sightings);
  // A skip the server counts before it reads the sizes would spend the listener's budget, and the
  // later cases' skips would be refused.
  const all = skipToItemFirst(server.baseUrl);
  const reasons = all.filter((reason) => !(facts.skipsAsked && SKIPS.has(reason)));
  if (reasons.length < all.length)
    findings.note('skipNext and skipPrev not asked: the policies limit skips, and each asked might spend one');
  probing: for (const reason of reasons) {
    const base = { reason, ...(itemId === undefined || WITHOUT_ITEM.has(reason) ? {} : { itemId }) };
    let refusedAnyway: boolean | undefined;
    // Both sides for skipToItem, the message's example; one for the others, each asked a side a
    // player sends (a slow server's run spent 50 s more on both: review). Without an itemId a server
    // may ignore previousWindowSize (a load starts where it chooses): the upcoming side there.
    const sides = !('itemId' in base)
      ? (['upcomingWindowSize'] as const)
      : reason === 'skipToItem'
        ? (['previousWindowSize', 'upcomingWindowSize'] as const)
        : (['previousWindowSize'] as const);
    for (const sized of sides) {
      const ask = {
        ...base,
        previousWindowSize: sized === 'previousWindowSize' ? previous : 5,
        upcomingWindowSize: sized === 'upcomingWindowSize' ? upcoming : 10,
      };
      const answer = await server.itemWindow(ask);
      // A server may look the item up before the sizes: an edit that took it away earns the 404,
      // and every reason after would ask around it again: said once, the rest not asked.
      const edited = await gone.after(answer, ask.itemId);
      if (edited) {
        findings.warn(goneSaid(edited, 'so whether the sizes are refused is not judged'));
        break probing;
      }
      asked.push(answer);
      if (answer.status === 400) continue;
      if (reason !== 'skipToItem' && !is2xx(answer)) {
        refusedAnyway ??= !isWindow(
          windowOf(await server.itemWindow({ ...ask, previousWindowSize: 5, upcomingWindowSize: 10 })),
        );
        if (refusedAnyway) continue;
      }
      misjudged.push({
        answer,
        as: `${reason} (${sized}=${String(ask[sized])})`,
        got: `expected 400 (${why}), got ${refusalGot(answer, 400)!}`,
      });
    }
  }
  failGrouped(findings, misjudged);
  return findings.verdict(
    `${asked.length} windows asked with previousWindowSize=${String(previous)} or upcomingWindowSize=${String(upcoming)}, each reason once or more: 400 each`,
    misjudged.length ? misjudged.map(({ answer }) => answer) : asked,
  );
}

/** An answer that was not the refusal expected: how it was asked (`pause`, its reason) and what came. */
interface Misjudged {
  answer: Answer;
  as: string;
  got: string;
}

/** One failure per way of going wrong: the first answer of each said whole, the others by how they were asked. */
function failGrouped(findings: Findings, wrong: readonly Misjudged[]): void {
  const byGot = new Map<string, Misjudged[]>();
  for (const one of wrong) byGot.set(one.got, [...(byGot.get(one.got) ?? []), one]);
  for (const [got, [first, ...rest]] of byGot) {
    const also = rest.length ? `; the same for reason=${rest.map(({ as }) => as).join(', ')}` : '';
    findings.fail(`${requestLine(first!.answer)}: ${got}${also}`);
  }
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
