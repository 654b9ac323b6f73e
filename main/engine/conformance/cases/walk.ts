/**
 * The two cases the walk through the queue settles (`walk.ts`): the window's flags, and the ids.
 * The walk goes both ways from wherever the window without itemId starts.
 */
import { fail, Findings, pass, skip, warn, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { RULE } from '../rules.js';
import { requestLine } from '../server.js';
import type { Walk } from '../facts.js';
import { flagProblems, walkQueue } from '../walk.js';
import { repeatedId } from '../window-view.js';

export const queueEnds: ConformanceCase = {
  id: 'item-window.queue-ends',
  rule: RULE.shapes,
  title:
    'includesBeginningOfQueue and includesEndOfQueue are true exactly when the window holds the first or last item',
  needs: ['item-window.first'],
  async run({ server, facts, now }: CaseContext): Promise<Verdict> {
    const walk = await walkQueue(server, now, { canSkipBack: facts.canSkipBack });
    facts.walk = walk;
    // Every other window of the run is held to the ends it found (item-window.ends-everywhere).
    if (walk.reachedBeginning || walk.reachedEnd)
      facts.trail.ends.judgeBy((view) => flagProblems(view, walk, { types: false }), walk.queueVersion);
    const evidence = walk.answers;
    const walked = walkedText(walk);
    if (walk.problems.length) return fail(listed(walk.problems, walked), evidence);
    if (walk.warnings.length) return warn(listed(walk.warnings, walked), evidence);
    if (walk.ids.length === 0)
      return pass('the queue is empty: its window says includesBeginningOfQueue and includesEndOfQueue true', evidence);
    return pass(
      `${walked}; the flags were right on every window${walk.reachedEnd && walk.reachedBeginning ? '' : ' it saw'}`,
      evidence,
    );
  },
};

export const uniqueIds: ConformanceCase = {
  id: 'item-window.ids',
  rule: RULE.shapes,
  title: 'Item ids are unique in the queue and stay where they are from window to window',
  needs: ['item-window.first'],
  // The walk's ids: a replay of this case alone skipped it, "the walk did not run" (audit).
  uses: ['item-window.queue-ends'],
  async run({ facts }: CaseContext): Promise<Verdict> {
    const walk = facts.walk;
    if (!walk) return skip('the walk through the queue did not run');
    if (walk.ids.length === 0 && !walk.idProblems.length)
      return skip(
        // The walk's own first window refused or cut (a size of 0 refused, a window over the byte
        // cap): no ids were compared, whatever the first window held (audit).
        walk.windows === 0
          ? `the walk got no window to compare ids in (see item-window.queue-ends)${walk.problems[0] ? `: ${walk.problems[0]}` : ''}`
          : // A window of items whose ids are no strings is no empty queue (item-window.items fails on them).
            facts.firstWindow?.items.length
            ? 'no item of the windows has a string id to compare (see item-window.items)'
            : 'the queue is empty: no ids to compare',
        walk.answers,
      );
    const findings = new Findings();
    for (const problem of walk.idProblems) findings.fail(problem);
    for (const view of facts.windows) {
      const twice = repeatedId(view);
      if (twice !== undefined) findings.fail(`${requestLine(view.answer)}: ${twice} appears twice in one window`);
    }
    const seenAgain = walk.idsSeenAgain
      ? `, ${walk.idsSeenAgain.toLocaleString('en-US')} of them seen again in overlapping windows, each where it was`
      : '';
    return findings.verdict(
      `${walk.ids.length.toLocaleString('en-US')} ids, none twice${seenAgain} (${walkedText(walk)})`,
      walk.answers,
    );
  },
};

function walkedText(walk: Walk): string {
  const smaller = walk.overCap
    ? ` of ${walk.overCap.size} item${walk.overCap.size === 1 ? '' : 's'} beyond each (a window of ${walk.overCap.asked} was over the run's byte cap: asked again smaller, not failed)`
    : '';
  const windows = `${walk.windows} window${walk.windows === 1 ? '' : 's'}${smaller}`;
  const items = `${walk.ids.length.toLocaleString('en-US')} item${walk.ids.length === 1 ? '' : 's'}`;
  // The answers over the byte cap, each asked again smaller, are no window at the edges.
  const edges = walk.answers.length - walk.windows - (walk.overCap?.times ?? 0);
  // A first window that starts after the first item is the server's right (docs/contract/console.md §8): said, to show the walk went both ways.
  const from =
    walk.startedAt > 0
      ? ` from ${walk.ids[walk.startedAt]} (item ${(walk.startedAt + 1).toLocaleString('en-US')}), where the window without itemId started, back and on`
      : '';
  const again = walk.walkedAgain
    ? ` (walked again: the queue changed while it was walked, queueVersion ${JSON.stringify(walk.walkedAgain.from)} then ${JSON.stringify(walk.walkedAgain.to)})`
    : '';
  if (walk.reachedEnd && walk.reachedBeginning)
    return `walked the whole queue${from}${again}: ${items} in ${windows}, then ${edges} more window${edges === 1 ? '' : 's'} at its edges`;
  if (walk.stopped) return `walked ${items}${from} in ${windows}${again}; ${walk.stopped}`;
  return `walked ${items}${from} in ${windows}${again}`;
}

function listed(items: readonly string[], walked: string): string {
  const shown = items.length > 3 ? [...items.slice(0, 3), `… and ${items.length - 3} more`] : [...items];
  return [...shown, walked].join('; ');
}
