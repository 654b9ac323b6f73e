/**
 * The report ledger (docs/contract/platform.md §2.3): prepares `update` and `final` reports from
 * the playing track, with the fields of the version its base URL names (report-version.ts), holds
 * those due before a started-at-once load's first window, posts them, and reads what the server
 * answers (docs/contract/console.md §5). A `final` goes once per playback; a report never stops
 * playback. It owns the reports part of the player's state (the reports held for a first window).
 */
import type { PlayerCore } from './core.js';
import { awaitsFirstWindow, isUnnamed, type HeldReport, type PreparedReport, type ReportsPart } from './context.js';
import { reportIntervalsOf, type TimePlayedAnswer } from './contract-check.js';
import { dispatchFailure } from './request-policies.js';
import { reportForVersion, reportVersionOfTarget } from './report-version.js';
import { updateQueue } from './session-state.js';
import { stopUpdates } from './track-state.js';
import type { TrackPlayback } from './track-playback.js';
import { DEFAULT_POLICIES, type PlaybackReport } from './wire.js';

const own = (p: PlayerCore): ReportsPart => p.ctx as unknown as ReportsPart;

/**
 * The `final` report of a track that stops because something replaces its queue (a new load, a
 * new session): "posted once after each track finishes playing" (§2.3). One that ended at the end
 * of the queue has had its report. A queue dropped because its server failed or answered 404
 * gets none: the server just said it cannot take one.
 */
export function reportCutOff(p: PlayerCore): void {
  // A load waiting with its track started at once is cut off too: the track it cut off, and
  // what was held for its first window, are reported with the track playing.
  for (const cutOff of p.ctx.loading?.cutOffs ?? []) postReport(p, cutOff, { cutOff: true, ofQueueBefore: true });
  const prepared = settleHeldReports(p);
  if (prepared) postReport(p, prepared, { cutOff: true });
}

/** Not for a track without an item id: the load that would name it was left (see `untilFirstWindow`). */
export function prepareCutOff(p: PlayerCore): PreparedReport | null {
  return p.ctx.atEnd || isUnnamed(p.ctx, p.ctx.track) ? null : prepareReport(p, 'final');
}

/**
 * The report of the playing track as of `at` (engine time; now unless a timer says when it was
 * due), with the fields of the base URL's version.
 */
export function prepareReport(
  p: PlayerCore,
  type: PlaybackReport['type'],
  skipReportId?: string,
  at = p.deps.clock.now(),
): PreparedReport | null {
  const { track, queue } = p.ctx;
  if (!track || !queue || !track.hasStarted) return null;
  const report = track.report(type, at, p.ctx.window?.queueVersion ?? '', skipReportId);
  // An update of a track that is not playing is the one a pause sends (sendPlaybackActions): no
  // other goes out while it is paused.
  const action =
    type === 'final' && skipReportId !== undefined ? 'skip' : type === 'update' && !track.playing ? 'pause' : undefined;
  const extras = { contextVersion: queue.contextVersion, reportId: track.reportId, action } as const;
  return { target: queue.target, report: reportForVersion(report, reportVersionOfTarget(queue.target), extras) };
}

/** `at`: see prepareReport. No `update` for a playback whose server answered one it could not read. */
export function sendReport(p: PlayerCore, type: PlaybackReport['type'], skipReportId?: string, at?: number): void {
  if (type === 'update' && p.ctx.track?.updatesStopped) return;
  const prepared = prepareReport(p, type, skipReportId, at);
  if (!prepared) return;
  if (!awaitsFirstWindow(p.ctx)) return postReport(p, prepared, { playback: p.ctx.track! });
  const playback = p.ctx.track!;
  const part = own(p);
  const held = part.reportsUntilFirstWindow.filter((r) => r.playback === playback);
  if (type === 'update') {
    if (held.some((r) => r.prepared.report.type === 'final')) return;
    part.reportsUntilFirstWindow = part.reportsUntilFirstWindow.filter(
      (r) => r.playback !== playback || r.prepared.report.type !== 'update',
    );
  }
  part.reportsUntilFirstWindow.push({ playback, prepared });
}

/** The first window came: the reports held for it, taken (to be posted with its version). */
export function takeHeldReports(p: PlayerCore): readonly HeldReport[] {
  const part = own(p);
  const held = part.reportsUntilFirstWindow;
  part.reportsUntilFirstWindow = [];
  return held;
}

/** The first window will not come for this queue (its requests were left): nothing is held for it. */
export function dropHeldReports(p: PlayerCore): void {
  own(p).reportsUntilFirstWindow = [];
}

/**
 * Sends a timePlayed report. `cutOff`: the report of a queue being replaced, whose 404 must not
 * evict the new session. `ofQueueBefore`: the cut-off report of the queue a load replaced; its
 * failure is that queue's (in the traffic log), not an error of the queue now playing.
 * `playback`: the playback it reports, which an answer the player cannot read is about.
 */
export function postReport(
  p: PlayerCore,
  { target, report }: PreparedReport,
  {
    cutOff = false,
    ofQueueBefore = false,
    playback,
  }: { cutOff?: boolean; ofQueueBefore?: boolean; playback?: TrackPlayback } = {},
): void {
  const epoch = p.ctx.epoch;
  const kind = cutOff ? 'cutOffReport' : 'report';
  void p.retries
    .send(kind, (retry) => p.deps.client.timePlayed(target, [report], retry))
    .then((result) => {
      const ofThisQueue = epoch === p.ctx.epoch && !ofQueueBefore && !cutOff;
      if (result.ok) {
        // A held report (no playback given) is about the playing track if it names its item.
        const about = playback ?? (ofThisQueue && p.ctx.track?.item.id === report.id ? p.ctx.track : undefined);
        return takeAnswer(p, result.value, about, ofThisQueue);
      }
      if (epoch !== p.ctx.epoch || ofQueueBefore) return;
      // A report that fails never stops playback; a 404 still evicts the session (§7.1).
      dispatchFailure(p, kind, result.failure, result.exchange.requestId);
    });
}

/**
 * What a 2xx answer to a report says (docs/contract/console.md §5): a context's `reports` and
 * policies are taken, as from GET /context, when it is about the queue playing now; JSON the
 * player cannot read stops the `update` reports of the playback the report was about (its final
 * still goes). What the answer broke is a warning, noted with its exchange.
 */
function takeAnswer(
  p: PlayerCore,
  answer: TimePlayedAnswer,
  playback: TrackPlayback | undefined,
  ofThisQueue: boolean,
): void {
  if (answer.kind === 'unreadable') {
    if (!playback || playback.updatesStopped) return;
    stopUpdates(playback);
    if (playback === p.ctx.track) p.clearTimer('reportUpdate');
    return p.changed();
  }
  if (answer.kind !== 'context' || !ofThisQueue || !p.ctx.queue) return;
  updateQueue(p.ctx, {
    ...(answer.playbackPolicies ? { policies: { ...DEFAULT_POLICIES, ...answer.playbackPolicies } } : {}),
    // Raised to the floor as a context's are (contract-check.ts).
    ...(answer.reports ? { reports: reportIntervalsOf(answer.reports) } : {}),
  });
  // The next update follows the intervals now in force.
  armUpdateReport(p);
  p.changed();
}

/**
 * A started-at-once load's queue is left for good (the load failed, or one that superseded it
 * started its own track): the tracks of that queue that were heard and have an item id get their
 * held reports and, the one playing, its final (no window came: no version to give).
 */
export function reportWhatWasHeard(p: PlayerCore): void {
  const final = settleHeldReports(p);
  if (final) postReport(p, final, { ofQueueBefore: true });
}

/**
 * Posts the reports held for a first window that will not come (a load that started its track
 * at once failed, or was superseded or cut off), those with an item id; returns the final the
 * playing track is still owed (see `prepareCutOff`), none when its final was among them.
 */
export function settleHeldReports(p: PlayerCore): PreparedReport | null {
  const { held, final } = heldReportsToPost(p);
  for (const prepared of held) postReport(p, prepared, { ofQueueBefore: true });
  own(p).reportsUntilFirstWindow = [];
  return final;
}

/** What `settleHeldReports` would post and return, left as it is (a save counts it owed). */
export function heldReportsToPost(p: PlayerCore): { held: PreparedReport[]; final: PreparedReport | null } {
  const held: PreparedReport[] = [];
  let finalHeld = false;
  for (const { playback, prepared } of p.ctx.reportsUntilFirstWindow) {
    if (p.ctx.unnamedTracks.has(playback)) continue;
    held.push(prepared);
    finalHeld ||= playback === p.ctx.track && prepared.report.type === 'final';
  }
  return { held, final: finalHeld ? null : prepareCutOff(p) };
}

/**
 * `update` reports after sendUpdateAfterMillis of play, then every periodicIntervalMillis; `from`
 * is the engine time to count from (the due time of the update before). Each goes out as of the
 * engine time its played time was due, not when its timer ran: a real timer runs a few ms late,
 * and the report would say so (docs/contract/console.md §6).
 */
export function armUpdateReport(p: PlayerCore, from = p.deps.clock.now()): void {
  p.clearTimer('reportUpdate');
  const track = p.ctx.track;
  const settings = p.ctx.queue?.reports;
  if (!track?.playing || !settings || track.updatesStopped) return;
  const first = settings.sendUpdateAfterMillis;
  const every = settings.periodicIntervalMillis;
  const played = track.durationPlayed(from);
  let next: number | undefined;
  if (first !== undefined && played < first) next = first;
  else if (every !== undefined && every > 0)
    next = (first ?? 0) + Math.ceil((played - (first ?? 0) + 1) / every) * every;
  if (next === undefined) return;
  const due = from + (next - played);
  p.setTimer('reportUpdate', Math.max(0, due - p.deps.clock.now()), () => {
    sendReport(p, 'update', undefined, due);
    armUpdateReport(p, due);
  });
}
