/**
 * The console's own player plays the whole queue through (docs/contract/console.md §8): from its
 * first item to its end on an engine clock of the case's own, skipping, pausing and seeking as a
 * listener would, with the real rhythm of windows, version polls and reports (`play.ts`). Any
 * violation the player records fails it, named by its rule and the exchange it came in; so does
 * an error it gives up with, a pause it takes by itself, or a track that never moves on.
 * Integrators shipped servers that died six tracks into an album of short tracks, and servers
 * that served only the playing item and the next: every case before passed them.
 *
 * It plays to the queue's end, whatever its length, for as long as the run's deadline allows
 * (less a moment for the cases after it, which only read what was answered). A queue too long for
 * the deadline is a warning that says how far the player got: what it did not play, it does not pass.
 * A play the deadline stopped before the listener's first five tracks (a pause on the second, a
 * seek on the third, a skip back from the fourth, a skip on the fifth) fails: it has not done what
 * the case is there to do, and a slow server or a short --timeout passed a server whose defect
 * only a skip back shows (outside audit of 7 December 2026).
 *
 * It builds on every case whose rule the player leans on, so a defect one of them fails skips
 * this one (one defect, one failure). The clock is the case's own, never the console's: the
 * user's players and the engine clock are not touched.
 */
import { EngineClock } from '../../clock/clock.js';
import { CHECK_PLAYER_ID } from '../../api/conformance-types.js';
import { isObject } from '../../api/is-object.js';
import type { CloudQueueClient, PlayerExchange } from '../../player/client.js';
import type { Violation } from '../../player/contract-check.js';
import { Player } from '../../player/player.js';
import { REQUEST_TIMEOUT_MS } from '../../player/retry.js';
import { fail, pass, skip, warn, type CaseContext, type ConformanceCase, type Verdict } from '../case.js';
import { probeEnd, type EndProbe } from '../end-probe.js';
import { GoneItems, goneSaid } from '../gone-items.js';
import { PlayAnswers } from '../play-answers.js';
import { FIRST_ACTS_TRACKS, GONE_RELOADS, play, type Noted, type Play } from '../play.js';
import { retained } from '../retained.js';
import { requestLine } from '../server.js';
import { withinTime } from '../within-time.js';
import { RULE } from '../rules.js';
import { askOf, sizeProblems } from './sizes.js';
import { slowServerNote, type Heard } from '../heard.js';

/** The X-Player-Id of the case's player, as the suite's other requests. */
const PLAYER_ID = CHECK_PLAYER_ID;

export const playThrough: ConformanceCase = {
  id: 'play-through',
  rule: RULE.suite,
  title: "The console's player plays the whole queue through, skipping, pausing and seeking, with no violation",
  needs: [
    'context',
    'item-window.first',
    'item-window.size-limits',
    'item-window.centred',
    'item-window.queue-ends',
    'item-window.ids',
    'item-window.items',
    'item-window.queue-version',
    'version',
    'item-window.reasons',
    'time-played.update',
    'time-played.final',
  ],
  async run({ server, facts, now, deadlineAt }: CaseContext): Promise<Verdict> {
    // 503s the cases before it waited out: each asked again after Retry-After, 2 s at least (audit).
    const busyBefore = facts.heard.busyCount;
    const runNow = server.runNow;
    if (!runNow) return skip('this run has no player to lend the case');
    const walk = facts.walk;
    const queueFirst = walk?.reachedBeginning ? walk.ids[0] : undefined;
    const queueLast = walk?.reachedBeginning && walk.reachedEnd ? walk.ids.at(-1) : undefined;
    // Stopped (speed 0): only the case moves it, as fast as the server answers. A request is waited
    // for as long as a player would (10 s) before the clock moves on past it: a slow server is slow, not silent.
    const clock = new EngineClock({ startAt: runNow(), speed: 0, settleTimeoutMs: REQUEST_TIMEOUT_MS });
    const answers = new PlayAnswers();
    const noted: Noted[] = [];
    const client = server.playerClient(clock, (whole) => {
      // A play to the end of a long queue gets thousands of answers: each kept as evidence shows it.
      answers.add(retained(whole));
    });
    if (!client) return skip('this run has no player to lend the case');
    const unanswered = watchRequests(client, now);
    const gone = new GoneItems(server, facts.sightings);
    const player = new Player({
      playerId: PLAYER_ID,
      groupId: 'conformance-play-through',
      clock,
      client,
      onViolations: (violations, exchange) => {
        for (const violation of violations)
          if (!sizedInAll(violation, exchange)) noted.push({ violation, answer: answers.of(exchange.requestId) });
      },
    });
    try {
      const result = await play({
        player,
        clock,
        load: {
          queueBaseUrl: server.baseUrl,
          ...(server.authorization ? { httpAuthorization: server.authorization } : {}),
          ...(queueFirst ? { itemId: queueFirst } : {}),
          playOnCompletion: true,
        },
        ...(queueFirst === undefined ? {} : { queueFirst }),
        ...(queueLast === undefined ? {} : { queueLast, queueIds: new Set(walk!.ids) }),
        ...(typeof facts.firstWindow?.queueVersion === 'string'
          ? { queueVersion: facts.firstWindow.queueVersion }
          : {}),
        answers,
        noted,
        now,
        unanswered,
        gone: (answer) => gone.afterAsked(answer),
        budgetMs: Math.max(0, (deadlineAt ?? now() + BUDGET_WITHOUT_DEADLINE_MS) - now() - AFTER_PLAY_MS),
        ...(server.signal ? { signal: server.signal } : {}),
      });
      // Past the walk, the end the player stopped at is the server's word alone: asked again (end-probe.ts).
      const snapshot = player.snapshot();
      const probed =
        result.end.kind === 'end' && queueLast === undefined && snapshot.itemId
          ? await withinTime(
              probeEnd(
                server,
                snapshot.itemId,
                snapshot.queueVersion,
                answers.endSaidAt(snapshot.itemId) ?? answers.lastWindow,
                (answer, itemId, seenIn) => gone.after(answer, itemId, seenIn),
              ),
              (deadlineAt ?? now() + BUDGET_WITHOUT_DEADLINE_MS) - now() - AFTER_PLAY_MS,
              { problems: [], notJudged: "the run's time ran out before its end could be asked again", answers: [] },
            )
          : null;
      return verdictOf(result, answers, probed, busyBefore, facts.heard);
    } finally {
      player.close();
      clock.close();
    }
  },
};

/**
 * Whether the player's `itemWindow.window-size` on a window asked without itemId is only the
 * player counting from the window's first item. A first window may start anywhere, centred on the
 * server's current item among others (docs/conformance.md, the walk), so it is held to what
 * size-limits holds such a window to, by its own rule (`sizeProblems`): both sizes and the item, in
 * all (audit: a valid centred first window failed the play-through whenever the walk had not
 * reached the queue's first item).
 */
export function sizedInAll(violation: Violation, exchange: PlayerExchange): boolean {
  if (violation.rule !== 'itemWindow.window-size') return false;
  const ask = askOf(exchange.url);
  if (ask === null || ask.itemId !== undefined) return false;
  let body: unknown;
  try {
    body = JSON.parse(exchange.responseBody ?? '');
  } catch {
    return false;
  }
  return isObject(body) && Array.isArray(body.items) && sizeProblems(ask, { items: body.items }).length === 0;
}

/** Wall time kept back from the run's deadline for the cases after this one (they read answers, they send nothing). */
const AFTER_PLAY_MS = 2_000;
/** A run without a deadline (a test's own) plays for this long at most. */
const BUDGET_WITHOUT_DEADLINE_MS = 60_000;

/**
 * Notes each request of the player while it waits for its answer, so that a play that runs out of
 * time can tell a server that went silent (the request still waiting) from one that is only slow.
 */
function watchRequests(client: CloudQueueClient, now: () => number): (forMs: number) => string | null {
  const waiting = new Map<number, { what: string; since: number }>();
  let next = 0;
  const watch =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>, what: (args: NoInfer<A>) => string) =>
    async (...args: A): Promise<R> => {
      const key = next++;
      waiting.set(key, { what: what(args), since: now() });
      try {
        return await call(...args);
      } finally {
        waiting.delete(key);
      }
    };
  client.context = watch(client.context.bind(client), () => 'GET /context');
  client.itemWindow = watch(
    client.itemWindow.bind(client),
    ([, query]) =>
      `GET /itemWindow?reason=${query.reason}${query.itemId === undefined ? '' : `&itemId=${query.itemId}`}`,
  );
  client.version = watch(client.version.bind(client), () => 'GET /version');
  client.timePlayed = watch(client.timePlayed.bind(client), () => 'POST /timePlayed');
  return (forMs) => {
    // Oldest first: a Map keeps the order requests went out in.
    const oldest = waiting.values().next().value;
    if (!oldest || now() - oldest.since < forMs) return null;
    return `${oldest.what} has had no answer for ${Math.round((now() - oldest.since) / 1000)} s`;
  };
}

function verdictOf(
  result: Play,
  answers: PlayAnswers,
  probed: EndProbe | null,
  busyBefore: number,
  heard: Heard,
): Verdict {
  const { end, tracks } = result;
  if (end.kind === 'failed') return fail(end.message, end.evidence.length ? end.evidence : answers.recent.slice(-1));
  if (end.kind === 'stopped') return skip('the run stopped while the player played');
  const span =
    tracks.length === 0
      ? end.kind === 'out-of-time'
        ? 'no track yet'
        : // The player went through the queue without a moment on any item (audit Y3: "the whole
          // queue: no track" read as a contradiction): nothing to pause, seek or skip in.
          'no track seen playing (each ended as it began: tracks of 0 ms?)'
      : tracks.length === 1
        ? `1 track (${tracks[0]})`
        : `${tracks.length.toLocaleString('en-US')} tracks, ${tracks[0]} … ${tracks.at(-1)}`;
  const busy = result.busyLoads
    ? `; the load was answered 503 ${result.busyLoads === 1 ? 'once' : `${result.busyLoads} times`} and sent again after Retry-After, as an app would (a player does not retry a load)`
    : '';
  const reloaded = result.gone.length
    ? `; the queue changed under the play and ${goneItems(result)} went with it (a 404, rightly), and each time the player was loaded again without itemId, as an app would`
    : '';
  const played = `${span}, in ${duration(result.engineMs)} of engine time; ${actsOf(result)}; ${rhythmOf(answers)}${busy}${reloaded}`;
  const rules = [...new Set(result.warnings.map((note) => note.violation.rule))];
  const also = rules.length ? `; the player also recorded ${rules.join(', ')}` : '';
  if (end.kind === 'out-of-time') {
    const waited = busyBefore
      ? `; the cases before it had waited out ${busyBefore} answer${busyBefore === 1 ? '' : 's'} of 503, each asked again after Retry-After (${busyBefore * 2} s at least)`
      : '';
    if (tracks.length < FIRST_ACTS_TRACKS)
      return fail(
        `played ${played}, then ran out of the run's time (${Math.round(end.budgetMs / 1000)} s for the play) before the listener's first ${FIRST_ACTS_TRACKS} tracks (a pause, a seek, a skip back, a skip): too little was played to pass, and what was not played is not judged${slowServerNote(heard) || ' (a longer --timeout plays further)'}${waited}${also}`,
        answers.recent,
      );
    return warn(
      `played ${played}, then ran out of the run's time (${Math.round(end.budgetMs / 1000)} s for the play) before the queue's end: what comes after ${tracks.at(-1) ?? 'the first item'} was not played, so it is not judged (a longer --timeout plays further)${waited}${also}`,
      answers.recent,
    );
  }
  if (end.kind === 'emptied')
    return warn(
      `the queue was empty when the player loaded it: ${requestLine(end.window)} answered no items in queueVersion ${JSON.stringify(end.to)}, edited since the run's first window (${JSON.stringify(end.from)}), which held items: right if the queue was edited meanwhile (edits may empty it); nothing was played, so nothing is judged${also}`,
      [end.window],
    );
  if (end.kind === 'gone')
    return warn(
      `played ${played}; then ${goneSaid(end.gone, end.emptied ? `the player went idle, as the platform's does on that 404 (platform.md §7.1), and loaded again the queue was empty: the play ends there` : `the player went idle, as the platform's does on that 404 (platform.md §7.1), and after ${GONE_RELOADS} loads again the play ends there: what came after was not played and is not judged`)}${also}`,
      [end.gone.answer, end.gone.polled, end.gone.polledAgain],
    );
  if (probed?.problems.length) return fail(`${probed.problems.join('; ')}; played ${played}`, probed.answers);
  const endSaid = !probed
    ? ''
    : probed.notJudged
      ? `; its end not asked again: ${probed.notJudged}`
      : `; its end, past the walk, asked again: the flags right`;
  const said = `played the whole queue: ${played}${endSaid}`;
  if (rules.length) {
    const first = result.warnings[0]!;
    return warn(
      `the player recorded ${rules.join(', ')} (${first.violation.message}); ${said}`,
      result.warnings.flatMap((note) => (note.answer ? [note.answer] : [])),
    );
  }
  return pass(`${said}; the player recorded no violation`, answers.recent);
}

/** `item-6` or `3 items (item-6, …)`: what edits took away while the player asked about them. */
function goneItems({ gone }: Play): string {
  const ids = [...new Set(gone.map((g) => g.itemId))];
  return ids.length === 1
    ? ids[0]!
    : `${ids.length} items (${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''})`;
}

function actsOf({ acts }: Play): string {
  const parts = [
    `${acts.pause.toLocaleString('en-US')} pause${acts.pause === 1 ? '' : 's'}`,
    `${acts.seek.toLocaleString('en-US')} seek${acts.seek === 1 ? '' : 's'}`,
    `${(acts.skipNext + acts.skipPrev).toLocaleString('en-US')} skip${acts.skipNext + acts.skipPrev === 1 ? '' : 's'}`,
  ];
  return parts.join(', ');
}

function rhythmOf(answers: PlayAnswers): string {
  const n = (count: number, what: string) => `${count.toLocaleString('en-US')} ${what}${count === 1 ? '' : 's'}`;
  return `${n(answers.count('itemWindow'), 'window')}, ${n(answers.count('version'), 'version poll')}, ${n(answers.count('timePlayed'), 'report')}`;
}

function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
