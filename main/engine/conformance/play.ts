/**
 * A listener at the console's own simulated player (the engine's real player, not a copy): it
 * loads the server's queue, plays it from the first item on an engine clock of its own that it
 * moves forward step by step (`advance`: the player's timers fall due in order, its requests are
 * waited for), and now and then pauses, seeks, skips back and skips on, as a listener would. What
 * the player meets on the way (a violation it records, an error it gives up with, a pause it
 * takes by itself, a track that never moves on) ends the play with that failure. It plays to the
 * queue's end, however long the queue: only the wall time it is given (the run's deadline, less
 * what the cases after it need) stops it sooner, and then it says how far it got.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { messageOf } from '../api/errors.js';
import type { EngineClock } from '../clock/clock.js';
import type { Violation } from '../player/contract-check.js';
import type { LoadParams, UserAction } from '../player/events.js';
import { PlaybackError } from '../player/errors.js';
import type { Player } from '../player/player.js';
import { FOREGROUND_RETRY_LIMIT, REQUEST_TIMEOUT_MS } from '../player/retry.js';
import type { Gone } from './gone-items.js';
import type { PlayAnswers } from './play-answers.js';
import { outcomeOf, requestLine, retryAfterMs, type Answer } from './server.js';
import { idOf, isWindow, windowOf } from './facts.js';
import { otherVersion } from './version-answer.js';

/** Loads again after an item an edit took away (a 404, rightly) before the play ends there instead. */
export const GONE_RELOADS = 3;

/** The most engine time the listener lets pass between two looks at the player (less when it means to act sooner). */
export const PLAY_STEP_MS = 5_000;
/** Engine time with nothing moving (no track, no playhead, no state) that is a stuck player: longer than every retry wait of the platform. */
export const PLAY_STALL_MS = 180_000;
/** The long pause of the second track: past the 300 s version poll of a paused player. */
export const LONG_PAUSE_MS = 360_000;

/** A request waiting this long (wall) when the play runs out of time is a server that stopped answering, not a slow one. */
const UNANSWERED_AT_END_MS = 5_000;

/** A violation the player recorded, with the answer it came in. */
export interface Noted {
  violation: Violation;
  answer: Answer | undefined;
}

export type PlayEnd =
  | { kind: 'end' }
  /** Out of wall time before the queue's end: what was played is judged, what was not is said. */
  | { kind: 'out-of-time'; budgetMs: number }
  | { kind: 'failed'; message: string; evidence: Answer[] }
  /** The item the player asked about was gone with an edit (a 404, rightly): the player stops, as the platform's does. */
  | { kind: 'gone'; gone: Gone; emptied?: boolean }
  /** The queue was empty at the load, in another version than the run's first window (which held items): edits emptied it. */
  | { kind: 'emptied'; window: Answer; from: string; to: string }
  | { kind: 'stopped' };

export interface Play {
  end: PlayEnd;
  /** Items started, in order (an item played again counts again). */
  tracks: string[];
  acts: Record<'pause' | 'seek' | 'skipNext' | 'skipPrev', number>;
  /** Violations the suite judges as warnings elsewhere (docs/conformance.md). */
  warnings: Noted[];
  /** Loads the server answered 503 before one started the queue (each loaded again, as an app would). */
  busyLoads: number;
  /** Items an edit took away while the player asked about them (a 404, rightly): each time loaded again without itemId, as an app would. */
  gone: Gone[];
  engineMs: number;
}

export interface PlaySetup {
  player: Player;
  clock: EngineClock;
  load: LoadParams;
  /** The queue's first and last item, where the walk saw them. */
  queueFirst?: string;
  queueLast?: string;
  /** Every item the walk saw, given with `queueLast`: an end at another tells a flag from a queue that changed. */
  queueIds?: ReadonlySet<string>;
  /** The queueVersion the walk saw: an end judged against its last item only while the queue still has it (an edit may add items). */
  queueVersion?: string;
  /** The answers the player got, and the violations it recorded (filled as it plays). */
  answers: PlayAnswers;
  noted: readonly Noted[];
  /** Wall ms. */
  now(): number;
  signal?: AbortSignal;
  /** Wall ms the play may take; out of it before the queue's end, it stops and says so. */
  budgetMs: number;
  /** A request of the player left without an answer for `forMs` of wall time or more, said in a few words; null when none is. */
  unanswered?: (forMs: number) => string | null;
  /** Whether a 404 to one of the player's windows is right: its item gone with an edit (`gone-items.ts`). */
  gone?: (answer: Answer) => Promise<Gone | null>;
}

/** Rules of the player's own check that the suite judges as warnings (context, time-played.*): warnings here too. */
const WARNING_RULES = new Set([
  'context.no-policies',
  'context.report-interval',
  'itemWindow.contextVersion',
  'timePlayed.answer',
]);

/**
 * Rules a case of their own judges over every window of the run, this play's among them
 * (runner.ts feeds each answer to `facts.identities`): failed here too, one defect would fail two
 * cases.
 */
const JUDGED_BY_THEIR_CASE = new Set(['itemWindow.stable-identity']);

type Step = { afterMs: number; act: UserAction | 'seek' };

/**
 * What the listener does with the k-th track it hears (1-based): the same every run. Within a
 * short track (an album of 1.5 s tracks) it acts a third of the way in, so that it acts at all.
 */
function planFor(k: number, wentBack: boolean, durationMillis: number | undefined): Step[] {
  const soon =
    typeof durationMillis === 'number' && durationMillis > 0 ? Math.max(1, Math.floor(durationMillis / 3)) : Infinity;
  return plannedFor(k, wentBack).map((step) =>
    step.act === 'play' ? step : { ...step, afterMs: Math.min(step.afterMs, soon) },
  );
}

/**
 * The tracks by whose end the plan below has had the listener do each thing once: a pause on the
 * second, a seek on the third, a skip back from the fourth, a skip on the fifth. A play cut before
 * them has not done what the play-through is there to do.
 */
export const FIRST_ACTS_TRACKS = 5;

function plannedFor(k: number, wentBack: boolean): Step[] {
  if (k === 2)
    return [
      { afterMs: 3_000, act: 'pause' },
      { afterMs: LONG_PAUSE_MS, act: 'play' },
    ];
  if (k === 3) return [{ afterMs: 2_000, act: 'seek' }];
  if (k === 4 && !wentBack) return [{ afterMs: 3_000, act: 'skipPrev' }];
  if (k % 5 === 0) return [{ afterMs: 2_000, act: 'skipNext' }];
  if (k % 7 === 6)
    return [
      { afterMs: 2_000, act: 'pause' },
      { afterMs: 20_000, act: 'play' },
    ];
  if (k % 3 === 0) return [{ afterMs: 2_000, act: 'seek' }];
  return [];
}

export async function play(setup: PlaySetup): Promise<Play> {
  const { player, clock, answers, noted } = setup;
  const { budgetMs } = setup;
  const result: Play = {
    end: { kind: 'stopped' },
    tracks: [],
    acts: { pause: 0, seek: 0, skipNext: 0, skipPrev: 0 },
    warnings: [],
    busyLoads: 0,
    gone: [],
    engineMs: 0,
  };
  const startedWall = setup.now();
  const startedEngine = clock.now();
  let loaded = false;
  let loadFailure: string | null = null;
  // Set by callbacks (a skip the server answered later): read through the holder.
  const later: { failure: { message: string; evidence: Answer[] } | null } = { failure: null };
  let steps: Step[] = [];
  let stepFrom = 0;
  let listenerPaused = false;
  let violationsSeen = 0;
  let lastError = player.snapshot().lastError;
  // The error a skip the server refused left as the player's last (its right under limitedSkips).
  let refusedSkipError: unknown = null;
  let progressKey = '';
  let progressAt = clock.now();

  const failed = (message: string, evidence: Answer[] = []): Play => ({
    ...result,
    end: { kind: 'failed', message, evidence },
    engineMs: clock.now() - startedEngine,
  });
  const ended = (end: PlayEnd): Play => {
    // Out of wall time while the server had stopped answering: that is no bound, it is the failure.
    const silent = end.kind === 'out-of-time' ? unanswered() : null;
    if (silent) return silent;
    const waiting = end.kind === 'out-of-time' ? setup.unanswered?.(UNANSWERED_AT_END_MS) : null;
    if (waiting) return failed(`expected the player to play on, but ${waiting}${where()}`, lastRefused());
    return { ...result, end, engineMs: clock.now() - startedEngine };
  };
  /** The answer that explains a player's failure: the last one that was not a 2xx. */
  const lastRefused = (): Answer[] => {
    const answer = answers.lastRefused;
    return answer ? [answer] : [];
  };
  const because = (): string => {
    const [answer] = lastRefused();
    return answer ? ` (${requestLine(answer)} answered ${outcomeOf(answer)})` : '';
  };
  /** A request the server left without an answer: a player retries one, but a server that leaves one for 10 s has stopped (a fault rule's timeout is the console's, not the server's). */
  const unanswered = (): Play | null => {
    const answer = answers.unanswered;
    if (!answer) return null;
    return failed(
      `expected an answer to every request of the player, but ${requestLine(answer)} got none (${answer.failure})${where()}`,
      [answer],
    );
  };
  /**
   * When the player's last refused window was a 404 an edit earned (its item gone): the player
   * went idle, as the platform's does, and the listener's app loads the queue again without
   * itemId, the server choosing where, so that what follows is still played and judged (a server
   * that drops played items is met at the load). After GONE_RELOADS, the play ends there. Null
   * when the 404 was no edit's.
   */
  let goneAnswer: Answer | undefined;
  const goneWithEdit = async (): Promise<Play | 'loaded again' | null> => {
    const answer = answers.lastRefused;
    // Each refusal once: a load again that fails otherwise leaves the 404 the last refusal.
    if (!answer || answer === goneAnswer || answer.exchange.endpoint !== 'itemWindow' || !setup.gone) return null;
    const gone = await setup.gone(answer);
    if (!gone) return null;
    goneAnswer = answer;
    if (result.gone.push(gone) > GONE_RELOADS) return ended({ kind: 'gone', gone });
    const { itemId: _asked, ...withoutItem } = setup.load;
    loadParams = withoutItem;
    loaded = false;
    loadFailure = null;
    lastError = player.snapshot().lastError;
    load();
    return 'loaded again';
  };
  const where = (): string => {
    const item = result.tracks.at(-1);
    return item ? ` while playing ${item} (track ${result.tracks.length})` : ' before the first track played';
  };

  player.createSession('cloud-queue-console', 'play-through');
  let loadParams = setup.load;
  const load = (): void =>
    void player.load(loadParams).then(
      () => (loaded = true),
      (error: unknown) => (loadFailure = messageOf(error)),
    );
  load();

  for (;;) {
    if (setup.signal?.aborted) return ended({ kind: 'stopped' });
    for (; violationsSeen < noted.length; violationsSeen++) {
      const note = noted[violationsSeen]!;
      const rule = note.violation.rule;
      if (JUDGED_BY_THEIR_CASE.has(rule)) continue;
      if (WARNING_RULES.has(rule)) {
        result.warnings.push(note);
        continue;
      }
      const on = note.answer ? ` on ${requestLine(note.answer)}` : '';
      return failed(
        `the player recorded ${rule}${on}${where()}: ${note.violation.message} (expected no violation)`,
        note.answer ? [note.answer] : [],
      );
    }
    const silent = unanswered();
    if (silent) return silent;
    // A request left for longer than a player waits (10 s of wall time; the engine clock waits for
    // it before it moves on) has its answer: none. Said now, not when the run's time is up.
    const waiting = setup.unanswered?.(REQUEST_TIMEOUT_MS);
    if (waiting) return failed(`expected the player to play on, but ${waiting}${where()}`, lastRefused());
    if (loadFailure !== null) {
      // A player does not retry a load (platform.md §7.3): the app that sent it gets the error, and
      // loads again once the server is back. A 503 is the server's right (§7.1), so the case loads
      // again as that app would, after Retry-After, as often as a 503 is retried (§7.2); whether
      // a brief 503 at the load fails the run must not be luck (audit).
      const busy = answers.lastRefused;
      if (busy?.status === 503 && !busy.exchange.fault && result.busyLoads < FOREGROUND_RETRY_LIMIT) {
        result.busyLoads++;
        loadFailure = null;
        const waitMs = retryAfterMs(busy);
        // A wait past the play's time is the time running out, said as such (review).
        if (setup.now() + waitMs - startedWall > budgetMs) return ended({ kind: 'out-of-time', budgetMs });
        try {
          await delay(waitMs, undefined, setup.signal ? { signal: setup.signal } : {});
        } catch {
          return ended({ kind: 'stopped' });
        }
        // The failed load's error is the player's last until the next: not one it met playing.
        lastError = player.snapshot().lastError;
        load();
        continue;
      }
      const last = answers.lastWindow ? windowOf(answers.lastWindow) : null;
      const emptyLoad = last && isWindow(last) && last.items.length === 0 ? last : null;
      // Loaded again after an item went with an edit, into a queue the edit emptied: the end of it.
      if (emptyLoad && loadParams !== setup.load)
        return ended({ kind: 'gone', gone: result.gone.at(-1)!, emptied: true });
      // The first load, into a queue the cases' edits (or the server's own) emptied since the run's
      // first window: a valid server's queue may end up empty; nothing is left to play or judge. In
      // the first window's version, an empty queue is one that changed without a new version.
      if (
        emptyLoad &&
        typeof setup.queueVersion === 'string' &&
        typeof emptyLoad.queueVersion === 'string' &&
        emptyLoad.queueVersion !== setup.queueVersion
      )
        return ended({
          kind: 'emptied',
          window: emptyLoad.answer,
          from: setup.queueVersion,
          to: emptyLoad.queueVersion,
        });
      const gone = await goneWithEdit();
      if (gone === 'loaded again') continue;
      if (gone) return gone;
      const again = result.busyLoads
        ? `, after loading again ${result.busyLoads} time${result.busyLoads === 1 ? '' : 's'} on a 503 as an app would`
        : '';
      return failed(
        `expected the load to start the queue, got ${loadFailure}${because()}${again} (a player does not retry a load: platform.md §7.3; a real player's load fails the same way)`,
        lastRefused(),
      );
    }
    if (later.failure) {
      // A skip the player asked the server for, around an item an edit took away (limitedSkips).
      const gone = await goneWithEdit();
      if (gone === 'loaded again') {
        later.failure = null;
        continue;
      }
      return gone ?? failed(later.failure.message, later.failure.evidence);
    }
    const snapshot = player.snapshot();
    // Withheld earlier items fail only where a listener may skip back (play-answers.ts).
    const withheld = answers.takeWithheld();
    if (withheld)
      return failed(
        `${requestLine(withheld.answer)}${where()}: ${withheld.message} (a listener could not skip back from there)`,
        [withheld.answer],
      );
    if (
      // Until the load starts the queue, its own failure (above) says what went wrong.
      loaded &&
      snapshot.lastError &&
      snapshot.lastError !== lastError &&
      snapshot.lastError !== refusedSkipError &&
      !skipRefused(answers.last)
    ) {
      const gone = await goneWithEdit();
      if (gone === 'loaded again') continue;
      if (gone) return gone;
      return failed(
        `expected the player to play on to the end of the queue, got an error it could not get past${where()}: ${snapshot.lastError.message}${because()}`,
        lastRefused(),
      );
    }
    lastError = snapshot.lastError;
    const item = snapshot.itemId;

    if (loaded) {
      if (snapshot.state === 'IDLE') {
        const gone = await goneWithEdit();
        if (gone === 'loaded again') continue;
        return (
          gone ??
          failed(
            `expected the player to play on to the end of the queue, but it went idle${where()}${because()}`,
            lastRefused(),
          )
        );
      }
      // Paused after the last track, or suspended already (a pauseTtlSec of 0 suspends at once): a
      // listener at the end of the queue does not resume it, which would play the last track again.
      if (snapshot.atEnd && (snapshot.state === 'PAUSED' || snapshot.state === 'SUSPENDED')) {
        if (
          setup.queueLast !== undefined &&
          item !== setup.queueLast &&
          snapshot.queueVersion === (setup.queueVersion ?? snapshot.queueVersion)
        ) {
          const window = answers.lastWindow;
          const where = window ? ` (${requestLine(window)} ended the queue there)` : '';
          // An item the walk never saw, under the version the walk saw: the queue changed without a
          // new version, and blaming its end flags sent an integrator to mend right flags (audit Y5).
          if (item && setup.queueIds && !setup.queueIds.has(item))
            return failed(
              `the player stopped at the end of the queue at ${item}${where}, an item the walk never saw under this same queueVersion ${JSON.stringify(snapshot.queueVersion)} (the queue then ended at ${setup.queueLast}): the queue changed without a new queueVersion, which an edit must give it (console.md §4): a player holding the old one never asks for what changed`,
              window ? [window] : [],
            );
          return failed(
            `the player stopped at the end of the queue at ${item}, but the queue's last item is ${setup.queueLast}${where}`,
            window ? [window] : [],
          );
        }
        return ended({ kind: 'end' });
      }
      if (snapshot.state === 'SUSPENDED') {
        // The long pause outlived pauseTtlSec: a listener comes back with a resume.
        listenerPaused = false;
        steps = steps.filter((step) => step.act !== 'play');
        void player.act('resume', 'user').catch(
          (error: unknown) =>
            (later.failure = {
              message: `resume after a suspension${where()} failed: ${messageOf(error)}${because()}`,
              evidence: lastRefused(),
            }),
        );
      } else if (snapshot.state === 'PAUSED' && !listenerPaused) {
        return failed(
          `expected the player to play on to the end of the queue, but it paused by itself${where()}${because()}`,
          lastRefused(),
        );
      }
    }

    if (item && item !== result.tracks.at(-1)) {
      result.tracks.push(item);
      steps = planFor(result.tracks.length, result.acts.skipPrev > 0, snapshot.track?.durationMillis ?? undefined);
      stepFrom = clock.now();
      listenerPaused = false;
    }
    if (setup.now() - startedWall > budgetMs) return ended({ kind: 'out-of-time', budgetMs });

    const key = `${snapshot.state}|${item}|${Math.floor(snapshot.positionMillis / 1000)}`;
    if (key !== progressKey || listenerPaused || !loaded) {
      progressKey = key;
      progressAt = clock.now();
    } else if (clock.now() - progressAt > PLAY_STALL_MS) {
      return failed(
        `expected the player to move on, but nothing moved for ${PLAY_STALL_MS / 1000} s of engine time${where()} (the player is ${snapshot.state.toLowerCase()}${snapshot.atEdge ? ', waiting at the edge of its window for what follows' : ''})${because()}`,
        lastRefused(),
      );
    }

    const next = steps[0];
    if (loaded && next && clock.now() - stepFrom >= next.afterMs) {
      steps.shift();
      stepFrom = clock.now();
      const failure = act(setup, next.act, result, snapshot, (why) => (later.failure = why), {
        lastRefused,
        where,
        because,
        noteSkipRefused: () => (refusedSkipError = player.snapshot().lastError),
      });
      if (next.act === 'pause' && failure === null) listenerPaused = true;
      if (next.act === 'play') listenerPaused = false;
      if (failure) return failed(failure.message, failure.evidence);
    }

    // No further than the next planned act, or the end of the playing track: the listener hears every track start.
    const due = steps[0] && loaded ? Math.max(1, stepFrom + steps[0].afterMs - clock.now()) : PLAY_STEP_MS;
    const duration = snapshot.track?.durationMillis;
    const untilEnd =
      typeof duration === 'number' && duration > snapshot.positionMillis
        ? duration - snapshot.positionMillis + 1
        : PLAY_STEP_MS;
    if (!(await advanceWithin(clock, Math.min(PLAY_STEP_MS, due, untilEnd), startedWall + budgetMs - setup.now())))
      return ended({ kind: 'out-of-time', budgetMs });
  }
}

interface Explain {
  lastRefused(): Answer[];
  where(): string;
  because(): string;
  /** The server refused the skip just asked (403 with X-Rejected-Reason): the listener stays where it is. */
  noteSkipRefused(): void;
}

/**
 * Does what the listener planned, when the queue's policies allow it (a listener's button is
 * greyed out otherwise); a refusal the listener could not expect is a failure, returned at once
 * or handed to `later` when the player waits for the server first.
 */
function act(
  setup: PlaySetup,
  what: Step['act'],
  result: Play,
  snapshot: ReturnType<Player['snapshot']>,
  later: (failure: { message: string; evidence: Answer[] }) => void,
  explain: Explain,
): { message: string; evidence: Answer[] } | null {
  const { player } = setup;
  const policies = snapshot.policies;
  const item = snapshot.itemId;
  try {
    if (what === 'seek') {
      const duration = snapshot.track?.durationMillis;
      if (!policies?.canSeek || typeof duration !== 'number' || duration <= 0) return null;
      player.seek({ positionMillis: Math.floor(duration * 0.6) }, 'user');
      result.acts.seek++;
      return null;
    }
    if (what === 'skipNext') {
      if (!policies?.canSkip || !player.metadata().nextItem) return null;
    }
    if (what === 'skipPrev') {
      const window = snapshot.window;
      const first =
        setup.queueFirst !== undefined
          ? item === setup.queueFirst
          : window?.includesBeginningOfQueue === true && window.items[0]?.id === item;
      if (!policies?.canSkipBack || first) return null;
    }
    if (what === 'pause' || what === 'skipNext' || what === 'skipPrev') result.acts[what]++;
    player.act(what, 'user').catch((error: unknown) => {
      // A server may refuse a skip (limitedSkips: 403 with X-Rejected-Reason); the listener stays where it is.
      if (error instanceof PlaybackError && error.errorCode === 'ERROR_SKIP_LIMIT_REACHED') explain.noteSkipRefused();
      else {
        const failure = refusal(what, item, error, snapshot, setup, explain);
        if (failure) later(failure);
      }
    });
    return null;
  } catch (error) {
    return refusal(what, item, error, snapshot, setup, explain);
  }
}

function refusal(
  what: Step['act'],
  item: string | null,
  error: unknown,
  snapshot: ReturnType<Player['snapshot']>,
  setup: PlaySetup,
  explain: Explain,
): { message: string; evidence: Answer[] } | null {
  const message = messageOf(error);
  if (what === 'skipPrev' && /no previous track/.test(message)) {
    const window = setup.answers.lastWindow;
    // An edit since the walk made the playing item the queue's first (the items played before it
    // removed), and the server's window of the new version says so: the refusal is right (audit).
    if (firstSinceAnEdit(window, item, setup.queueVersion)) return null;
    // The queue goes on back, yet what the player holds ends at the playing item: the server withholds the items before it.
    const said = snapshot.window
      ? ` and says includesBeginningOfQueue ${String(snapshot.window.includesBeginningOfQueue)}`
      : '';
    return {
      message: `expected a listener to skip back from ${item ?? 'the playing track'}, not the queue's first item, got "${message}": ${window ? `${requestLine(window)} holds nothing before it` : 'the window holds nothing before it'}${said} (a window asked with previousWindowSize > 0 must hold what comes before its item)`,
      evidence: window ? [window] : [],
    };
  }
  return {
    message: `expected ${what}${explain.where()} to work, got ${message}${explain.because()}`,
    evidence: explain.lastRefused(),
  };
}

/** The window says it starts at `item`, the queue's first, in another version than the walk's. */
function firstSinceAnEdit(window: Answer | undefined, item: string | null, walked: string | undefined): boolean {
  const view = window && windowOf(window);
  if (!view || !isWindow(view) || !otherVersion(walked, view.queueVersion)) return false;
  return view.includesBeginningOfQueue === true && item !== null && idOf(view.items[0]) === item;
}

/** The player's last error is a skip the server refused (403 to a skip's window): its right under limitedSkips. */
function skipRefused(last: Answer | undefined): boolean {
  return last?.status === 403 && (last.exchange.reason === 'skipNext' || last.exchange.reason === 'skipPrev');
}

/** `clock.advance(ms)`, unless the wall time left runs out first (a server that never answers, a request storm). */
async function advanceWithin(clock: EngineClock, ms: number, wallLeftMs: number): Promise<boolean> {
  if (wallLeftMs <= 0) return false;
  let timer: NodeJS.Timeout | undefined;
  const out = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), wallLeftMs)));
  const advanced = clock.advance(ms).then(
    () => true as const,
    () => true as const,
  );
  try {
    return await Promise.race([advanced, out]);
  } finally {
    clearTimeout(timer);
  }
}
