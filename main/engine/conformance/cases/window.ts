/**
 * GET /itemWindow answers with a window (docs/contract/platform.md §4.3), and every item of every
 * window has an `id` and a track with a `mediaUrl` (docs/contract/console.md §4): the player
 * plays `mediaUrl` and reports and asks for items by `id`.
 */
import { isObject } from '../../api/is-object.js';
import { fail, Findings, skip, type ConformanceCase } from '../case.js';
import { isWindow, spanOf, windowOf, type WindowView } from '../facts.js';
import { RULE } from '../rules.js';
import { is2xx, outcomeOf, requestLine, type WindowAsk } from '../server.js';
import { unauthorizedHint } from './context.js';

/** As the player asks on a load: no itemId, its default sizes. */
export const FIRST_WINDOW_ASK: WindowAsk = { reason: 'load', previousWindowSize: 5, upcomingWindowSize: 10 };

export const firstWindow: ConformanceCase = {
  id: 'item-window.first',
  rule: RULE.requests,
  title: 'GET /itemWindow without itemId answers with a window',
  async run({ server, facts }) {
    const answer = await server.itemWindow(FIRST_WINDOW_ASK);
    const asked = requestLine(answer);
    const view = windowOf(answer);
    if (!isWindow(view)) {
      const got = is2xx(answer) ? `${answer.status}, but ${view.problem}` : outcomeOf(answer);
      return fail(
        `${asked}: expected 200 with a window {includesBeginningOfQueue, includesEndOfQueue, queueVersion, items}, got ${got}${unauthorizedHint(answer)}`,
      );
    }
    const findings = new Findings();
    for (const flag of ['includesBeginningOfQueue', 'includesEndOfQueue'] as const) {
      if (typeof view[flag] !== 'boolean')
        findings.fail(`${asked}: ${flag} must be true or false, got ${JSON.stringify(view[flag]) ?? 'nothing'}`);
    }
    if (!findings.failed) facts.firstWindow = view;
    const held = view.ids ? spanOf(view.ids) : `${view.items.length} items`;
    if (view.items.length === 0) findings.note('the queue is empty: the cases that need an item are skipped');
    return findings.verdict(
      `${asked}: ${answer.status} with ${held}, includesBeginningOfQueue ${String(view.includesBeginningOfQueue)}, includesEndOfQueue ${String(view.includesEndOfQueue)}`,
    );
  },
};

export const windowItems: ConformanceCase = {
  id: 'item-window.items',
  rule: RULE.shapes,
  title: 'Every item of a window has an id and a track with a mediaUrl',
  needs: ['item-window.first'],
  async run({ facts }) {
    const windows = facts.windows;
    const count = windows.reduce((sum, view) => sum + view.items.length, 0);
    if (count === 0)
      return skip(
        'no window held an item (the queue is empty): nothing to check',
        windows.map((view) => view.answer),
      );
    const findings = new Findings();
    const wrong: WindowView[] = [];
    for (const view of windows) {
      const problems = view.items.flatMap((item, index) => {
        const problem = itemProblem(item);
        return problem ? [`items[${index}]${labelOf(item)} ${problem}`] : [];
      });
      if (!problems.length) continue;
      wrong.push(view);
      const more = problems.length > 1 ? ` (and ${problems.length - 1} more of its ${view.items.length} items)` : '';
      findings.fail(`${requestLine(view.answer)}: ${problems[0]}${more}`);
    }
    const evidence = (wrong.length ? wrong : windows).map((view) => view.answer);
    return findings.verdict(
      `${count.toLocaleString('en-US')} items in ${windows.length} windows, each with an id and a track with a mediaUrl`,
      evidence,
    );
  },
};

/** What is wrong with an item, or null. */
function itemProblem(item: unknown): string | null {
  if (!isObject(item)) return 'is not an object, expected {id, track}';
  if (typeof item.id !== 'string' || item.id === '')
    return `has id ${JSON.stringify(item.id) ?? '(none)'}, expected a non-empty string`;
  if (!isObject(item.track)) return 'has no track, expected an object with a mediaUrl';
  const { mediaUrl, durationMillis } = item.track;
  if (typeof mediaUrl !== 'string' || mediaUrl === '')
    return `has track.mediaUrl ${JSON.stringify(mediaUrl) ?? '(none)'}, expected a non-empty string (the URL the player plays)`;
  if (durationMillis !== undefined && (typeof durationMillis !== 'number' || !(durationMillis >= 0)))
    return `has track.durationMillis ${JSON.stringify(durationMillis)}, expected a number ≥ 0`;
  return null;
}

function labelOf(item: unknown): string {
  return isObject(item) && typeof item.id === 'string' && item.id ? ` (${item.id})` : '';
}
