/**
 * Every `reason` a player sends is accepted (docs/contract/platform.md §2.4, §9.3): the nine
 * values, and `load+queueCompleted` since v2.2. A server may ignore `reason` and answer every one
 * alike; refusing one breaks the player's request at that moment (a skip, a resume).
 *
 * A server may also keep its own code for a reason, and its own mistakes there: each answer is held
 * to what every window is held to, no more than asked on either side and its flags true exactly
 * where it holds an end the walk found. A mistake the baseline answer shares (`refresh` for the
 * reasons sent with itemId, `load` for those without) is every window's, and the case that judges it
 * (`item-window.size-limits`, `item-window.queue-ends`) fails on it; this one fails on what only
 * some reasons get wrong, a window that leaves out the item asked for among it (a server that
 * answered skipNext, pause or resume around another item passed: audit).
 */
import {
  COMBINED_REASONS,
  ITEM_WINDOW_REASONS,
  SKIP_REASONS,
  type ItemWindowReason,
} from '../../cloud-queue/reasons.js';
import { COMBINED_SINCE } from '../../player/reasons.js';
import { namedVersionOf } from '../../player/report-version.js';
import { Findings, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { isWindow, windowOf, type SuiteFacts, type WindowView } from '../facts.js';
import { GoneItems, goneSaid, type Gone } from '../gone-items.js';
import { RULE } from '../rules.js';
import { is2xx, outcomeOf, requestLine, type Answer, type WindowAsk } from '../server.js';
import { isVersion } from '../version-answer.js';
import { flagProblems } from '../walk.js';
import { repeatedId } from '../window-view.js';
import { knownIds, missingItemProblem, sizeProblems } from './sizes.js';

const REASONS: readonly ItemWindowReason[] = [...ITEM_WINDOW_REASONS, ...COMBINED_REASONS];

/**
 * The reasons asked of a server at `baseUrl`: joined ones (`load+queueCompleted`) unless the URL
 * names a version before v2.2 (docs/contract/platform.md §9.3), whose players never send one; a
 * v2.0 server that refused one failed (audit). A URL that names none is asked them all, as
 * docs/contract/console.md §8 says of the suite.
 */
export function reasonsFor(baseUrl: string): readonly ItemWindowReason[] {
  return (namedVersionOf(baseUrl) ?? COMBINED_SINCE) >= COMBINED_SINCE ? REASONS : ITEM_WINDOW_REASONS;
}

/**
 * Reasons a player may send without itemId: a load that names no item starts where the server
 * chooses (the queue's first item). One that names an item sends it (`loadCloudQueue`'s `itemId`).
 */
export const WITHOUT_ITEM: ReadonlySet<ItemWindowReason> = new Set<ItemWindowReason>(['load', 'load+queueCompleted']);

/** The reasons of a listener's skip: a server whose policies have the player ask first may refuse one. */
export const SKIPS = SKIP_REASONS;

/** The reason whose answer the others of its kind are compared with: around an item, refresh's. */
const baselineOf = (ask: WindowAsk): ItemWindowReason =>
  ask.itemId === undefined && WITHOUT_ITEM.has(ask.reason) ? 'load' : 'refresh';

export const everyReason: ConformanceCase = {
  id: 'item-window.reasons',
  rule: RULE.reasons,
  title: 'Every reason value, and load+queueCompleted, is accepted and answered as any window',
  uses: ['item-window.first', 'item-window.queue-ends'],
  async run({ server, facts }: CaseContext): Promise<Verdict> {
    const first = knownIds(facts)?.[0];
    // Around the first item the run knows, and around the queue's last once the walk found it:
    // each end's flag is judged where a window can hold it (a queueCompleted comes at the end).
    const last = facts.walk?.reachedEnd ? facts.walk.ids.at(-1) : undefined;
    const anchors = [...new Set([first, last])].filter((id) => id !== undefined);
    const findings = new Findings();
    const answers: Answer[] = [];
    const misjudged: Answer[] = [];
    const refusedSkips: Answer[] = [];
    const problemsOf = new Map<string, string[]>();
    // The baselines first, so that every other reason is compared with its own.
    const reasons = reasonsFor(server.baseUrl);
    const asks: WindowAsk[] = [];
    const asking = (reason: ItemWindowReason, itemId?: string) =>
      asks.push({ reason, ...(itemId === undefined ? {} : { itemId }), previousWindowSize: 2, upcomingWindowSize: 2 });
    const firstOf = (reason: ItemWindowReason): ItemWindowReason[] => [
      reason,
      ...reasons.filter((other) => other !== reason),
    ];
    // A load as a load that names no item sends it, load first; then around each anchor every
    // reason, refresh first, a load's too: one that names an item must be answered around it, or
    // the player plays other tracks than the load named (review). With no anchor, all without.
    for (const reason of firstOf('load')) if (WITHOUT_ITEM.has(reason)) asking(reason);
    for (const anchor of anchors) for (const reason of firstOf('refresh')) asking(reason, anchor);
    if (!anchors.length) for (const reason of firstOf('refresh')) if (!WITHOUT_ITEM.has(reason)) asking(reason);
    const gone = new GoneItems(server, facts.sightings);
    // An item an edit took away is said once, with the reasons not judged around it.
    const goneAround = new Map<string, { gone: Gone; reasons: ItemWindowReason[] }>();
    for (const ask of asks) {
      const { reason } = ask;
      const answer = await server.itemWindow(ask);
      answers.push(answer);
      const view = windowOf(answer);
      if (answer.status === 403 && facts.skipsAsked && SKIPS.has(reason)) {
        refusedSkips.push(answer);
        continue;
      }
      const edited = await gone.after(answer, ask.itemId);
      if (edited) {
        const around = goneAround.get(edited.itemId);
        if (around) around.reasons.push(reason);
        else goneAround.set(edited.itemId, { gone: edited, reasons: [reason] });
        continue;
      }
      if (!isWindow(view)) {
        const got = is2xx(answer) ? `${answer.status}, but ${view.problem}` : outcomeOf(answer);
        findings.fail(`reason=${reason} (${requestLine(answer)}): expected a window, got ${got}`);
        continue;
      }
      const baseline = baselineOf(ask);
      const key = (of: ItemWindowReason) => `${of} ${ask.itemId ?? ''}`;
      const problems = windowProblems(ask, view, facts);
      problemsOf.set(key(reason), problems);
      if (reason === baseline) continue;
      const shared = new Set(problemsOf.get(key(baseline)) ?? []);
      const own = problems.filter((problem) => !shared.has(problem));
      for (const problem of own)
        findings.fail(`reason=${reason} (${requestLine(answer)}): ${problem}, where reason=${baseline} was right`);
      if (own.length) misjudged.push(answer);
    }
    for (const { gone: first, reasons } of goneAround.values())
      findings.warn(goneSaid(first, `not judged: reason=${reasons.join(', ')} around it`));
    const polls = [...goneAround.values()].flatMap(({ gone: first }) => [first.polled, first.polledAgain]);
    const refused = [
      ...answers.filter((answer) => !refusedSkips.includes(answer) && !isWindow(windowOf(answer))),
      ...polls,
    ];
    if (refusedSkips.length)
      findings.note(
        `the server refused ${refusedSkips.length} of the skips (403: its right where its policies have the player ask before a skip)`,
      );
    return findings.verdict(
      `all ${reasons.length} reasons answered with a window around ${anchors.join(' and ') || 'the item the server chose'}, each holding the item asked for, none more than asked or flagged an end it did not hold where reason=refresh (or load) did not (${reasons.join(', ')})`,
      refused.length || misjudged.length ? [...refused, ...misjudged] : answers,
    );
  },
};

/**
 * What a window holds beyond what was asked, and flags not where it stands (as far as the walk
 * knows the ends: of the version it walked; an edit since may have moved them, audit).
 */
function windowProblems(ask: WindowAsk, view: WindowView, facts: SuiteFacts): string[] {
  const { walk } = facts;
  const walked = walk && (!isVersion(walk.queueVersion) || view.queueVersion === walk.queueVersion);
  // Where skipToItem's window stands is item-window.centred's to judge, with the neighbours. Said
  // without what the window held, so that the baseline's same miss is known as the same (review).
  const missing = ask.reason === 'skipToItem' ? null : missingItemProblem(ask, view, false);
  // Said on its own: a window that repeats an item read only as one item too many (outsider y10).
  const twice = repeatedId(view);
  return [
    ...(missing ? [missing] : []),
    ...(twice === undefined ? [] : [`${twice} appears twice in one window`]),
    ...sizeProblems(ask, view),
    ...(walked ? flagProblems(view, walk) : []),
  ];
}
