/**
 * One playback of one track, counted the way playback reports describe it (docs/contract/platform.md §2.3):
 * `durationPlayedMillis` adds up every played segment (seeks included, so it may exceed the
 * track), `timeSincePlaybackMillis` runs from the start of this track's playback through pauses,
 * `positionMillisAtSegmentStart` is where the current segment began (e.g. the last resume).
 *
 * A segment ends when the playhead reaches the end of the track, at the engine time it was due
 * to, not when the timer that says so ran: a real timer fires a few ms late, and a 25,000 ms
 * track reported 25,016 played.
 */
import { randomUUID } from 'node:crypto';
import type { PlaybackReport, QueueItem } from './wire.js';
import { DEFAULT_TRACK_MILLIS } from './wire.js';

/** A playback as a restart keeps it (see saved.ts): played time so far, and where the playhead is. */
export interface SavedTrack {
  item: QueueItem;
  startedAt: number | null;
  playedMillis: number;
  positionMillis: number;
  /** Absent in records written before reports carried it: the playback gets a new one. */
  reportId?: string;
  /** Its server answered a report with what it cannot read (see `stopUpdates`). */
  updatesStopped?: boolean;
}

export class TrackPlayback {
  /** Engine time this track first started playing; null until it does. */
  private startedAt: number | null = null;
  /** Played time of closed segments. */
  private playedBefore = 0;
  /** Engine time the open segment began; null while not playing. */
  private segmentStartedAt: number | null = null;
  private segmentStartPosition: number;
  /**
   * Names this playback in its reports (v2.3 `reportId`, see report-version.ts): the same in its
   * updates and its final, another for the next playback of the same item.
   */
  private playbackReportId: string = randomUUID();
  /** No more `update` reports for this playback (docs/contract/console.md §5); its final still goes. */
  private updatesStoppedFlag = false;

  constructor(
    private playedItem: QueueItem,
    startPosition = 0,
  ) {
    this.segmentStartPosition = Math.max(0, Math.min(startPosition, this.durationMillis));
  }

  get item(): QueueItem {
    return this.playedItem;
  }

  /**
   * A track started from loadCloudQueue's metadata learns its queue item from the server's
   * first window; its playback goes on unchanged.
   */
  identify(item: QueueItem): void {
    this.playedItem = item;
  }

  get durationMillis(): number {
    return this.item.track.durationMillis ?? DEFAULT_TRACK_MILLIS;
  }

  get playing(): boolean {
    return this.segmentStartedAt !== null;
  }

  get hasStarted(): boolean {
    return this.startedAt !== null;
  }

  get reportId(): string {
    return this.playbackReportId;
  }

  get updatesStopped(): boolean {
    return this.updatesStoppedFlag;
  }

  /** Its server answered a report with JSON it cannot read: no more updates for the rest of it. */
  stopUpdates(): void {
    this.updatesStoppedFlag = true;
  }

  position(now: number): number {
    return Math.min(this.durationMillis, this.segmentStartPosition + this.inSegment(now));
  }

  durationPlayed(now: number): number {
    return this.playedBefore + this.inSegment(now);
  }

  /**
   * Played time of the open segment at `now`: it stops where the playhead reaches the end of the
   * track, at the time that was due (the track-end timer may run later).
   */
  private inSegment(now: number): number {
    if (this.segmentStartedAt === null) return 0;
    return Math.max(0, Math.min(now - this.segmentStartedAt, this.durationMillis - this.segmentStartPosition));
  }

  /** Engine ms until the playhead reaches `position` while playing. */
  untilPosition(position: number, now: number): number {
    return Math.max(0, position - this.position(now));
  }

  play(now: number): void {
    if (this.segmentStartedAt !== null) return;
    this.startedAt ??= now;
    this.segmentStartedAt = now;
  }

  pause(now: number): void {
    if (this.segmentStartedAt === null) return;
    const position = this.position(now);
    this.playedBefore += this.inSegment(now);
    this.segmentStartedAt = null;
    this.segmentStartPosition = position;
  }

  save(now: number): SavedTrack {
    return {
      item: this.item,
      startedAt: this.startedAt,
      playedMillis: this.durationPlayed(now),
      positionMillis: this.position(now),
      reportId: this.reportId,
      ...(this.updatesStoppedFlag ? { updatesStopped: true } : {}),
    };
  }

  /**
   * The playback a restart left behind, paused where it was saved. A playing one goes on with
   * `play`: a new segment from there, as after a resume. The player did not play while the engine
   * was down, even where a running engine clock moved on by that time.
   */
  static restore(saved: SavedTrack): TrackPlayback {
    const track = new TrackPlayback(saved.item, saved.positionMillis);
    track.startedAt = saved.startedAt;
    track.playedBefore = saved.playedMillis;
    if (saved.reportId !== undefined) track.playbackReportId = saved.reportId;
    track.updatesStoppedFlag = saved.updatesStopped === true;
    return track;
  }

  /** Moves the playhead; a new segment starts there. */
  seek(position: number, now: number): void {
    const wasPlaying = this.playing;
    this.pause(now);
    this.segmentStartPosition = Math.max(0, Math.min(position, this.durationMillis));
    if (wasPlaying) this.play(now);
  }

  report(type: PlaybackReport['type'], now: number, queueVersion: string, skipReportId?: string): PlaybackReport {
    const report: PlaybackReport = {
      id: this.item.id,
      mediaUrl: this.item.track.mediaUrl,
      queueVersion,
      durationPlayedMillis: Math.round(this.durationPlayed(now)),
      timeSincePlaybackMillis: this.startedAt === null ? 0 : Math.round(now - this.startedAt),
      positionMillis: Math.round(this.position(now)),
      positionMillisAtSegmentStart: Math.round(this.segmentStartPosition),
      type,
    };
    if (type === 'final' && skipReportId !== undefined) report.skip = { reportId: skipReportId };
    return report;
  }
}
