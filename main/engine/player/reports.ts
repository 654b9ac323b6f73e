/**
 * The report ledger (docs/contract/platform.md §2.3): prepares `update` and `final` reports from
 * the playing track, holds those due before a started-at-once load's first window, and posts
 * them. A `final` goes once per playback; a report never stops playback.
 */
import type { PlayerCore } from './core.js';
import { awaitsFirstWindow, isUnnamed, type PreparedReport } from './context.js';
import { dispatchFailure } from './flows.js';
import type { PlaybackReport } from './wire.js';

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

export function prepareReport(p: PlayerCore, type: PlaybackReport['type'], skipReportId?: string): PreparedReport | null {
  if (!p.ctx.track || !p.ctx.queue || !p.ctx.track.hasStarted) return null;
  return { target: p.ctx.queue.target, report: p.ctx.track.report(type, p.deps.clock.now(), p.ctx.window?.queueVersion ?? '', skipReportId) };
}

export function sendReport(p: PlayerCore, type: PlaybackReport['type'], skipReportId?: string): void {
  const prepared = prepareReport(p, type, skipReportId);
  if (!prepared) return;
  if (!awaitsFirstWindow(p.ctx)) return postReport(p, prepared);
  const playback = p.ctx.track!;
  const held = p.ctx.reportsUntilFirstWindow.filter((r) => r.playback === playback);
  if (type === 'update') {
    if (held.some((r) => r.prepared.report.type === 'final')) return;
    p.ctx.reportsUntilFirstWindow = p.ctx.reportsUntilFirstWindow.filter((r) => r.playback !== playback || r.prepared.report.type !== 'update');
  }
  p.ctx.reportsUntilFirstWindow.push({ playback, prepared });
}

/** `cutOff`: the report of a queue being replaced, whose 404 must not evict the new session. */
/**
 * Sends a timePlayed report. `ofQueueBefore`: the cut-off report of the queue a load replaced;
 * its failure is that queue's (in the traffic log), not an error of the queue now playing.
 */
export function postReport(p: PlayerCore, { target, report }: PreparedReport, { cutOff = false, ofQueueBefore = false } = {}): void {
  const epoch = p.ctx.epoch;
  const kind = cutOff ? 'cutOffReport' : 'report';
  void p.retries.send(kind, (retry) => p.deps.client.timePlayed(target, [report], retry)).then((result) => {
    if (result.ok || epoch !== p.ctx.epoch || ofQueueBefore) return;
    // A report that fails never stops playback; a 404 still evicts the session (§7.1).
    dispatchFailure(p, kind, result.failure, result.exchange.requestId);
  });
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
  p.ctx.reportsUntilFirstWindow = [];
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

/** `update` reports after sendUpdateAfterMillis of play, then every periodicIntervalMillis. */
export function armUpdateReport(p: PlayerCore): void {
  const track = p.ctx.track;
  const settings = p.ctx.queue?.reports;
  if (!track?.playing || !settings) return;
  const first = settings.sendUpdateAfterMillis;
  const every = settings.periodicIntervalMillis;
  const played = track.durationPlayed(p.deps.clock.now());
  let next: number | undefined;
  if (first !== undefined && played < first) next = first;
  else if (every !== undefined && every > 0) next = (first ?? 0) + Math.ceil((played - (first ?? 0) + 1) / every) * every;
  if (next === undefined) return;
  p.setTimer('reportUpdate', next - played, () => {
    sendReport(p, 'update');
    armUpdateReport(p);
  });
}
