/**
 * Two rules the suite checks early, held for the whole run (`trail.ts` tallies the answers as they
 * come): outsiders' servers wrong only in windows no case judged (the first window's flags, the
 * player's windows at the queue's end) or only after the version case (a /version that answered
 * another version at every poll of the play) passed (audit). Each case builds on the one that
 * checks its rule first, so a server wrong from the start fails that one alone.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { fail, pass, skip, warn, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { RULE } from '../rules.js';
import { isWindow, windowOf } from '../facts.js';
import { requestLine, type Answer, type CheckedServer } from '../server.js';
import { isVersion, versionOf } from '../version-answer.js';
import { withinTime } from '../within-time.js';

const n = (count: number) => count.toLocaleString('en-US');
const counted = (count: number, noun: string) => `${n(count)} ${noun}${count === 1 ? '' : 's'}`;
/** Wall ms kept back for the cases after these (they read answers, they send nothing). */
const LEFT_FOR_THE_LAST_MS = 1_000;

export const endsEverywhere: ConformanceCase = {
  id: 'item-window.ends-everywhere',
  rule: RULE.shapes,
  title:
    "Every window of the run, the walk's aside (the first window, size-limits', the play-through's), flags the queue's ends where the walk found them",
  needs: ['item-window.queue-ends'],
  // Its windows are most of what is judged: a replay of this case plays again too (review).
  uses: ['play-through'],
  async run({ facts }: CaseContext): Promise<Verdict> {
    const trail = facts.trail.ends;
    if (trail.found) {
      const shown = trail.problems.map((problem) => `${requestLine(problem.answer)}: ${problem.message}`);
      const more = trail.found > shown.length ? `; and ${n(trail.found - shown.length)} more windows` : '';
      return fail(
        `${shown.join('; ')}${more} (windows outside the walk; a window says includesBeginningOfQueue or includesEndOfQueue exactly when it holds the queue's first or last item)`,
        trail.problems.map((problem) => problem.answer),
      );
    }
    if (!trail.judging)
      return skip("the walk reached neither end of the queue: there is no end to judge another window's flags by");
    if (trail.judged === 0) return skip('no window outside the walk held an item of the version the walk saw');
    return pass(
      `${counted(trail.judged, 'window')} outside the walk (${n(trail.played)} of them the play-through's), each flagging the ends where the walk found them`,
      trail.recent,
    );
  },
};

export const versionThroughout: ConformanceCase = {
  id: 'version.throughout',
  rule: RULE.requests,
  title: "GET /version and the windows keep agreeing for the rest of the run, the play-through's polls included",
  needs: ['version'],
  uses: ['play-through'],
  async run({ facts, server, now, deadlineAt }: CaseContext): Promise<Verdict> {
    const trail = facts.trail.versions;
    if (!trail.watching) return skip('the version case did not run');
    const probeWithin = deadlineAt === undefined ? Infinity : deadlineAt - now() - LEFT_FOR_THE_LAST_MS;
    // Moved more than once: edits, or a version that moves by itself (a clock, a counter). Asked as
    // the version case asks, /version, a window and /version back to back, a server whose /version
    // moves with nothing edited in between shows it (audit: such a server only warned).
    const moving =
      trail.changed >= 2
        ? await withinTime(stillDisagree(server, trail.changed, BETWEEN_PROBES_MS), probeWithin, null)
        : null;
    if (moving) return fail(moving.message, moving.evidence);
    const [first] = trail.disagreements;
    if (first && trail.disagreed >= 2) {
      return fail(
        `GET /version said ${JSON.stringify(first.said)} while the window fetched right after it still carried ${JSON.stringify(first.carried)} (${requestLine(first.poll)}, then ${requestLine(first.window)}), ${n(trail.disagreed)} times in the run: with nothing changed they must agree (each such poll has a player fetch its window again, for nothing)`,
        trail.disagreements.flatMap((d) => [d.poll, d.window]),
      );
    }
    // Moved once, or disagreed once (and not asked above): an edit, or a /version the edit left
    // behind. A short queue's play polls once after an edit, or not at all (outsider audit: such a
    // server passed); asked back to back the same way, a /version left behind disagrees in every
    // ask. Asked seconds apart: a /version served from a replica or a cache may trail an edit by a
    // moment, which a player polling every few minutes never sees (review).
    const behind =
      trail.changed < 2 && trail.changed + trail.disagreed > 0
        ? await withinTime(stillDisagree(server, trail.changed, BEHIND_PROBES_MS), probeWithin, null)
        : null;
    if (behind) return fail(behind.message, behind.evidence);
    const notes: string[] = [];
    if (first)
      notes.push(
        `GET /version said ${JSON.stringify(first.said)} once while the window fetched right after it still carried ${JSON.stringify(first.carried)} (${requestLine(first.poll)}, then ${requestLine(first.window)}): right only if the queue changed back in between`,
      );
    const [change] = trail.changes;
    if (change) {
      const times = trail.changed > 1 ? `, ${n(trail.changed)} changes in ${n(trail.windows)} windows` : '';
      notes.push(
        `the windows' queueVersion changed after the version case, from ${JSON.stringify(change.from)} to ${JSON.stringify(change.to)} (${requestLine(change.answer)})${times}: right if the queue was edited meanwhile, wrong if nothing changed it (a player fetches its window again at every change)`,
      );
    }
    if (notes.length)
      return warn(notes.join('; '), [
        ...(first ? [first.poll, first.window] : []),
        ...trail.changes.map((c) => c.answer),
      ]);
    if (trail.polls + trail.windows === 0) return skip('no version poll and no window came after the version case');
    return pass(
      `${counted(trail.polls, 'version poll')} and ${counted(trail.windows, 'window')} after the version case, all with queueVersion ${JSON.stringify(trail.initial)}`,
      trail.recent,
    );
  },
};

/** Back-to-back asks a version that moves by itself, or one left behind, fails in every one of (a queue edited at that instant agrees in the next). */
export const MOVING_PROBES = 3;
/** Wall ms between two back-to-back asks: a version that moves by itself moves within them. */
const BETWEEN_PROBES_MS = 250;
/** Wall ms between two asks after one edit: a /version that trails the edit by a moment catches up. */
const BEHIND_PROBES_MS = 2_500;

/**
 * GET /version, a window and GET /version again, back to back: a /version that answers the
 * window's version and then another within the same moment moves by itself; one that answers
 * the same version twice, and the window another, was left behind by an edit. Asked again, up to
 * MOVING_PROBES times, when they disagree, with one more /version between probes: a real edit
 * may fall between two asks of one probe (audit: a queue edited every 20 ms, or at every other
 * poll, failed), a clock, a counter or a stuck /version falls in every one. Null when one probe
 * agrees (or a request did not answer, which other cases judge).
 */
async function stillDisagree(
  server: CheckedServer,
  moved: number,
  betweenMs: number,
): Promise<{ message: string; evidence: Answer[] } | null> {
  const said: string[] = [];
  const evidence: Answer[] = [];
  let stuck = true;
  for (let probe = 0; probe < MOVING_PROBES; probe++) {
    if (probe > 0) {
      await delay(betweenMs);
      // One ask between probes: a queue edited at every other poll edits inside each probe of two.
      evidence.push(await server.version());
    }
    const before = await server.version();
    const answer = await server.itemWindow({ reason: 'refresh', previousWindowSize: 0, upcomingWindowSize: 0 });
    const after = await server.version();
    const [first, second] = [versionOf(before), versionOf(after)];
    const view = windowOf(answer);
    if (!isWindow(view) || typeof first !== 'string' || typeof second !== 'string' || !isVersion(view.queueVersion))
      return null;
    if (first === view.queueVersion && second === view.queueVersion) return null;
    if (first !== second) stuck = false;
    said.push(
      `GET /version said ${JSON.stringify(first)}, the window ${JSON.stringify(view.queueVersion)}, GET /version again ${JSON.stringify(second)}`,
    );
    evidence.push(before, answer, after);
  }
  const asked = `asked back to back ${MOVING_PROBES} times then, ${betweenMs.toLocaleString('en-US')} ms apart, they never agreed (${said.join('; ')})`;
  return { message: disagreement(moved, stuck, asked), evidence };
}

/**
 * What a probe that never agreed says, by what came before it: the windows' version moved twice
 * or more (a version that moves by itself, or edits /version did not follow), or once or never;
 * and whether /version kept answering one version all along (stuck) or moved too.
 */
function disagreement(moved: number, stuck: boolean, asked: string): string {
  const refetch = 'has a player fetch its window again at every poll';
  if (moved >= 2 && stuck)
    return `the windows' version moved ${n(moved)} times after the version case while GET /version kept answering one; ${asked}: a /version that edits left behind, or windows whose version moves with nothing edited, ${refetch}`;
  if (moved >= 2)
    return `the windows' version moved ${n(moved)} times after the version case; ${asked}: a version that moves with nothing edited in between ${refetch} (a queue edited at every one of those moments reads the same)`;
  const polls = 'A player polls /version to learn that the queue changed;';
  if (stuck)
    return `GET /version keeps answering one version and the windows another: ${asked}. ${polls} a /version that disagrees with the windows has it fetch its window at every poll, or never see an edit`;
  return `GET /version and the windows disagree: ${asked}. ${polls} one that disagrees with the windows has it fetch its window at every poll`;
}
