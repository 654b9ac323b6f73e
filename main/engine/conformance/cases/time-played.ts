/**
 * POST /timePlayed takes a valid `update` and a valid `final` report (docs/contract/platform.md
 * §2.3), for an item of the queue, with the queueVersion of its window. The platform does not
 * say the answer: 204, and 200 with an empty body, are fine; 200 with a context is how later
 * versions of the real service answer (docs/contract/console.md §5); 200 with other JSON is a
 * warning, because the player stops sending `update` reports for that track.
 */
import { randomUUID } from 'node:crypto';
import { isObject } from '../../api/is-object.js';
import { checkTimePlayedAnswer } from '../../player/contract-check.js';
import { reportForVersion, reportVersionOf } from '../../player/report-version.js';
import type { PlaybackReport } from '../../player/wire.js';
import { fail, pass, skip, warn, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { idOf } from '../facts.js';
import { RULE } from '../rules.js';
import { is2xx, outcomeOf, quote, requestLine, type Answer } from '../server.js';

export const updateReport: ConformanceCase = {
  id: 'time-played.update',
  rule: RULE.reports,
  title: 'POST /timePlayed accepts a valid update report',
  needs: ['item-window.first'],
  run: (context) => report(context, 'update'),
};

export const finalReport: ConformanceCase = {
  id: 'time-played.final',
  rule: RULE.reports,
  title: 'POST /timePlayed accepts a valid final report',
  needs: ['item-window.first'],
  run: (context) => report(context, 'final'),
};

async function report({ server, facts }: CaseContext, type: PlaybackReport['type']): Promise<Verdict> {
  const played = playableItem(facts.firstWindow?.items ?? []);
  if (!played)
    return skip(
      facts.firstWindow?.items.length
        ? 'no item of the first window has an id and a track.mediaUrl to report on (see item-window.items)'
        : 'the queue is empty: no item to report on',
    );
  const what =
    type === 'update'
      ? 'an update report'
      : played.durationMillis === undefined
        ? 'a final report, played 30 s past the 3 minutes taken for a track of no duration (a listener went back)'
        : 'a final report, played longer than the track (a listener went back)';
  const first = judged(await server.timePlayed([reportOf(played, facts, type, server.baseUrl)]), what, played, type);
  if (type === 'update' || first.outcome === 'fail') return first;
  // And the final of a track a skip ended, with the skip as the version says it (`skip` to v2.1,
  // `actions` from v2.2): a server that refused it passed here, and only the play-through's own
  // skips found it, in another case's name (outside verification of 7 December 2026).
  const second = judged(
    await server.timePlayed([reportOf(played, facts, 'final', server.baseUrl, { skipped: true })]),
    'a final report of a track a skip ended',
    played,
    type,
  );
  if (second.outcome === 'fail') return second;
  const message = `${first.message}; ${second.message}`;
  return first.outcome === 'warn' || second.outcome === 'warn' ? warn(message) : pass(message);
}

/** One report's answer, judged as the player reads it. */
function judged(answer: Answer, what: string, played: { id: string }, type: PlaybackReport['type']): Verdict {
  const asked = `${requestLine(answer)} (${what} of ${played.id})`;
  if (!is2xx(answer)) return fail(`${asked}: expected 204 (or 200), got ${outcomeOf(answer)}`);
  if (answer.status === 204 || answer.text.trim() === '')
    return pass(
      `${asked}: ${answer.status}${answer.status === 204 ? '' : ' with an empty body (204 is usual; 200 is fine)'}`,
    );
  // Read as the player reads it: a case that passed what the play-through warned of disagreed
  // with it (an outsider's context with sendUpdateAfterMillis -5).
  const { value: heard, violations } = checkTimePlayedAnswer(answer.status ?? 200, answer.text);
  if (heard?.kind === 'context') {
    const later = `${asked}: ${answer.status} with a context, as later versions of the service answer`;
    return violations.length ? warn(`${later}; ${violations.map((v) => v.message).join('; ')}`) : pass(later);
  }
  // After a final report there is no update left to stop: said so of an update only (audit Z5).
  const then =
    type === 'update'
      ? 'sends no more update reports for that track'
      : 'notes it (a final report is the track\u2019s last, so nothing more is lost)';
  const why = heard?.kind === 'unreadable' ? heard.why : 'an answer it cannot read';
  return warn(
    `${asked}: ${answer.status} with ${quote(answer.text)}, ${why}: the player takes it as a malformed answer and ${then} (answer 204, or 200 with an empty body or a context with reports or playbackPolicies)`,
  );
}

/**
 * A valid report of `played`, with the queueVersion of the first window, as the version the base URL names has its items (console.md §5:
 * `contextVersion` from v2.1, `reportId` from v2.3), as the console's own player sends them: the
 * cases sent v2.0's fields to every version, and a v2.3 server that asks for a `reportId` failed
 * them with 400 while the player's own reports, with one, went through (outside audit).
 */
export function reportOf(
  played: { id: string; mediaUrl: string; durationMillis?: number },
  facts: CaseContext['facts'],
  type: PlaybackReport['type'],
  baseUrl: string,
  /** A final of a track a skip ended, 30 s in (half way into a shorter one), as the player sends it. */
  { skipped = false }: { skipped?: boolean } = {},
): PlaybackReport {
  const queueVersion = typeof facts.firstWindow?.queueVersion === 'string' ? facts.firstWindow.queueVersion : '';
  // Thirty seconds into the track for an update (half way into a shorter one). A final at the track's end after the listener
  // went back 30 s (or to its start) and heard them again: the time played is cumulative, so longer than the track
  // (§2.3); a server that refused it passed, since nothing else sends one (audit).
  const length = played.durationMillis ?? 180_000;
  const back = Math.min(30_000, length);
  // An update within the track, whatever its length: what a report of a short track says.
  const into = Math.min(30_000, Math.floor(length / 2));
  const [position, playedMillis] = type === 'update' || skipped ? [into, into] : [length, length + back];
  const reportId = randomUUID();
  const report: PlaybackReport = {
    id: played.id,
    mediaUrl: played.mediaUrl,
    queueVersion,
    durationPlayedMillis: playedMillis,
    timeSincePlaybackMillis: playedMillis + 1_500,
    positionMillis: position,
    positionMillisAtSegmentStart: type === 'update' || skipped ? 0 : length - back,
    type,
    ...(skipped ? { skip: { reportId } } : {}),
  };
  return reportForVersion(report, reportVersionOf(baseUrl), {
    ...(facts.contextVersion !== undefined ? { contextVersion: facts.contextVersion } : {}),
    reportId,
    ...(skipped ? { action: 'skip' as const } : {}),
  });
}

/** The first item with an id and a media URL, and its duration when it has one. */
export function playableItem(
  items: readonly unknown[],
): { id: string; mediaUrl: string; durationMillis?: number } | null {
  for (const item of items) {
    const id = idOf(item);
    const track = isObject(item) && isObject(item.track) ? item.track : null;
    if (id === null || !track || typeof track.mediaUrl !== 'string' || !track.mediaUrl) continue;
    const duration =
      typeof track.durationMillis === 'number' && track.durationMillis > 0 ? track.durationMillis : undefined;
    return { id, mediaUrl: track.mediaUrl, ...(duration === undefined ? {} : { durationMillis: duration }) };
  }
  return null;
}
