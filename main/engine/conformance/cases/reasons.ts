/**
 * Every `reason` a player sends is accepted (docs/contract/platform.md §2.4, §9.3): the nine
 * values, and `load+queueCompleted` since v2.2. A server may ignore `reason` and answer every one
 * alike; refusing one breaks the player's request at that moment (a skip, a resume).
 */
import { COMBINED_REASONS, ITEM_WINDOW_REASONS, type ItemWindowReason } from '../../cloud-queue/reasons.js';
import { Findings, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { isWindow, windowOf } from '../facts.js';
import { RULE } from '../rules.js';
import { is2xx, outcomeOf, requestLine, type Answer } from '../server.js';
import { knownIds } from './sizes.js';

export const REASONS: readonly ItemWindowReason[] = [...ITEM_WINDOW_REASONS, ...COMBINED_REASONS];

/** Reasons a player sends without itemId: a load starts at the item the server chooses. */
const WITHOUT_ITEM = new Set<ItemWindowReason>(['load', 'load+queueCompleted']);

export const everyReason: ConformanceCase = {
  id: 'item-window.reasons',
  rule: RULE.reasons,
  title: 'Every reason value, and load+queueCompleted, is accepted',
  async run({ server, facts }: CaseContext): Promise<Verdict> {
    const itemId = knownIds(facts)?.[0];
    const findings = new Findings();
    const answers: Answer[] = [];
    for (const reason of REASONS) {
      const withItem = itemId !== undefined && !WITHOUT_ITEM.has(reason);
      const answer = await server.itemWindow({
        reason,
        ...(withItem ? { itemId } : {}),
        previousWindowSize: 2,
        upcomingWindowSize: 2,
      });
      answers.push(answer);
      const view = windowOf(answer);
      if (isWindow(view)) continue;
      const got = is2xx(answer) ? `${answer.status}, but ${view.problem}` : outcomeOf(answer);
      findings.fail(`reason=${reason} (${requestLine(answer)}): expected a window, got ${got}`);
    }
    const refused = answers.filter((answer) => !isWindow(windowOf(answer)));
    return findings.verdict(
      `all ${REASONS.length} reasons answered with a window (${REASONS.join(', ')})`,
      refused.length ? refused : answers,
    );
  },
};
