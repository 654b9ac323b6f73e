/**
 * One simulated player (one per group): it holds the playback session, calls the cloud queue
 * server the last loadCloudQueue named, and moves through the transition table on the engine
 * clock. This file is its public face, its dispatcher and its timers; the table (transitions.ts)
 * says what happens, and the parts given the player's core say how: effects.ts, flows.ts,
 * reports.ts, playback.ts, pending-load.ts. Its state record (context.ts) is in parts, each
 * written by one owner module; this file owns the machine part (state, last error, volume,
 * closed). What a command is refused with is preconditions.ts's table.
 */
import { randomUUID } from 'node:crypto';
import {
  newPlayerContext,
  policiesOf,
  knownItemId,
  type MachinePart,
  type PlaybackSession,
  type PlayerContext,
  type TimerName,
  type Timers,
} from './context.js';
import type { PlayerCore, PlayerDeps } from './core.js';
import { playerEffects, type Effects } from './effects.js';
import { PlaybackError } from './errors.js';
import {
  causeOf,
  type LoadParams,
  type PlayerEvent,
  type SeekTarget,
  type SkipToItemParams,
  type UserAction,
} from './events.js';
import { guardInputs } from './guards.js';
import {
  checkPreconditions,
  preconditionInputs,
  refusalsOf,
  type PlayerCommand,
  type PreconditionInputs,
  type Refusal,
} from './preconditions.js';
import { beginLoad, beginSkip, settleLoad, settleSkip, stateBeforeLoad } from './load-state.js';
import { evictSession, rescheduleVersionPoll } from './playback.js';
import { dropHeldReports } from './reports.js';
import { RequestRetries } from './request-policies.js';
import { closeRequests, leaveRequests } from './requests-state.js';
import { fromSaved, toSaved, type SavedPlayer } from './saved.js';
import { openSession } from './session-state.js';
import { setFirstWindowPending } from './track-state.js';
import { playbackStateOf, type MachineState } from './states.js';
import { findTransition, type Transition } from './transitions.js';
import { triggerRequest } from './trigger.js';
import type { TriggerRequest, TriggerResult } from '../api/fault-types.js';
import type { PlayerFailing } from '../api/player-types.js';
import type { PlayerExchange } from './client.js';
import { FailingMark } from './failing.js';
import type { ItemWindowResponse } from './wire.js';

export type { LoadedQueue, PlaybackSession, PlayerErrorRecord } from './context.js';
export type { PlayerDeps, TransitionRecord } from './core.js';

export { VERSION_POLL_PAUSED_MS, VERSION_POLL_PLAYING_MS } from './playback.js';

export class Player {
  readonly id: string;
  readonly groupId: string;
  /** The whole state record; this class writes only its machine part (`own`), the rest through the parts' owners. */
  private readonly ctx: PlayerContext = newPlayerContext();
  private readonly timers: Timers = new Map();
  private readonly core: PlayerCore;
  private readonly effects: Effects;
  /** Its newest requests to the queue it plays fail (failing.ts); not part of the saved state. */
  private readonly failingMark = new FailingMark();
  /** A change of the mark not yet told: told with the change the player makes of the answer, or alone. */
  private markUntold: ReturnType<typeof setImmediate> | null = null;

  constructor(private readonly deps: PlayerDeps) {
    this.id = deps.playerId;
    this.groupId = deps.groupId;
    const retries = new RequestRetries({
      clock: deps.clock,
      label: this.id,
      closed: () => this.ctx.closed,
      epoch: () => this.ctx.epoch,
      onResult: (result) => this.core.noteViolations(result),
      onChange: () => this.changed(),
    });
    this.core = {
      id: this.id,
      groupId: this.groupId,
      ctx: this.ctx,
      deps,
      retries,
      timers: this.timers,
      dispatch: (event, meta) => this.dispatch(event, meta),
      setTimer: (name, delayMs, callback) => this.setTimer(name, delayMs, callback),
      clearTimer: (name) => this.clearTimer(name),
      leaveRequests: (why) => this.leaveRequests(why),
      changed: () => this.changed(),
      noteError: (failure) => {
        this.own.lastError = { at: deps.clock.now(), message: failure.message, status: failure.status };
        this.changed();
      },
      clearError: () => {
        this.own.lastError = null;
      },
      restoreMachine: (restored) => Object.assign(this.own, restored),
      noteViolations: (result) => {
        if (result.exchange.violations.length > 0) deps.onViolations?.(result.exchange.violations, result.exchange);
      },
    };
    this.effects = playerEffects(this.core);
  }

  // ---------------------------------------------------------------- what hosts read

  get machineState(): MachineState {
    return this.ctx.state;
  }

  get failing(): PlayerFailing | null {
    return this.failingMark.shown(this.queuesNow());
  }

  /**
   * Every request it made, once finished (before the player acts on the answer): sets or lets go
   * of the failing mark. Told at the turn's end unless the player's own change of the answer
   * (an error noted, a transition, a retry waiting) tells it first: no event carries the mark
   * without the error the player noted from the same answer.
   */
  noteExchange(exchange: PlayerExchange): void {
    if (this.ctx.closed || !this.failingMark.note(exchange, this.queuesNow())) return;
    this.markUntold ??= setImmediate(() => {
      this.markUntold = null;
      if (!this.ctx.closed) this.deps.onChange?.({ saved: false });
    });
  }

  /** The queues whose requests the mark is about: the one played, and the one a load is asking for. */
  private queuesNow() {
    return [this.ctx.queue?.target, this.ctx.loading?.params];
  }

  get currentSession(): PlaybackSession | null {
    return this.ctx.session;
  }

  status() {
    const { state, track, window } = this.ctx;
    return {
      playbackState: playbackStateOf(state),
      suspended: state === 'SUSPENDED',
      itemId: knownItemId(this.ctx) ?? null,
      positionMillis: Math.round(track?.position(this.deps.clock.now()) ?? 0),
      queueVersion: window?.queueVersion ?? null,
    };
  }

  snapshot() {
    const { state, session, queue, window, track } = this.ctx;
    return {
      ...this.status(),
      state,
      sessionId: session?.id ?? null,
      queueBaseUrl: queue?.target.queueBaseUrl ?? null,
      policies: queue ? policiesOf(this.ctx) : null,
      reports: queue?.reports ?? null,
      container: queue?.container ?? null,
      window: window
        ? {
            queueVersion: window.queueVersion,
            includesBeginningOfQueue: window.response.includesBeginningOfQueue,
            includesEndOfQueue: window.includesEndOfQueue,
            items: window.items.map((item) => ({
              id: item.id,
              name: item.track.name ?? null,
              durationMillis: item.track.durationMillis ?? null,
            })),
          }
        : null,
      track: track ? { ...track.item.track, id: knownItemId(this.ctx) ?? null } : null,
      draining: this.ctx.draining,
      atEnd: this.ctx.atEnd,
      atEdge: this.ctx.atEdge,
      volume: this.ctx.volume,
      lastError: this.ctx.lastError,
      failing: this.failing,
      retrying: this.core.retries.waiting(),
    };
  }

  metadata() {
    const item = this.ctx.track?.item;
    const next = item && this.ctx.window?.after(item.id);
    return {
      container: this.ctx.queue?.container ?? null,
      currentItem: item ? { ...(knownItemId(this.ctx) !== undefined ? { id: item.id } : {}), track: item.track } : null,
      nextItem: next ? { id: next.id, track: next.track } : null,
    };
  }

  getVolume(): number {
    return this.ctx.volume;
  }

  setVolume(volume: number): void {
    this.own.volume = volume;
    this.changed();
  }

  wasEvicted(sessionId: string): boolean {
    return this.ctx.evictedSessions.includes(sessionId);
  }

  // ---------------------------------------------------------------- sessions

  createSession(appId: string, appContext: string, customData?: unknown): PlaybackSession {
    // With a queue, the row evicts the session (and reports the track it cut off); an idle one is evicted here.
    if (this.ctx.session && !this.dispatch({ type: 'sessionReplaced' })) evictSession(this.core);
    const session: PlaybackSession = {
      id: `session-${randomUUID()}`,
      appId,
      appContext,
      customData,
      createdAt: this.deps.clock.now(),
    };
    openSession(this.ctx, session);
    this.changed();
    return session;
  }

  joinOrCreateSession(
    appId: string,
    appContext: string,
    customData?: unknown,
  ): { session: PlaybackSession; created: boolean } {
    const { session } = this.ctx;
    if (session && session.appId === appId && session.appContext === appContext) return { session, created: false };
    return { session: this.createSession(appId, appContext, customData), created: true };
  }

  // ---------------------------------------------------------------- commands and user actions

  load(params: LoadParams): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      beginLoad(this.ctx, params, resolve, reject);
      this.dispatch({ type: 'load', params });
    });
  }

  skipToItem(params: SkipToItemParams): void {
    // To the playing item with a position, skipToItem is a seek.
    const seeksPlayingItem = params.positionMillis !== undefined && params.itemId === this.ctx.track?.item.id;
    this.require('skipToItem', { seeksPlayingItem });
    this.dispatch({ type: 'skipToItem', params });
  }

  /**
   * seek and seekRelative (docs/contract/console.md §3), at group or session level: the playhead
   * moves within the playing item, a new segment of the same playback (the table's `seek-*`
   * rows). seekRelative clamps to the track; a position past its end ends it, as on the real
   * service (the next track plays).
   */
  seek(target: SeekTarget, by: 'user' | 'command' = 'command'): void {
    this.require('seek', { itemId: target.itemId });
    const track = this.ctx.track!;
    const positionMillis =
      'deltaMillis' in target
        ? Math.max(0, Math.min(track.durationMillis, track.position(this.deps.clock.now()) + target.deltaMillis))
        : target.positionMillis;
    this.dispatch({ type: 'seek', positionMillis, by });
  }

  refresh(): void {
    this.require('refresh');
    this.dispatch({ type: 'refresh' });
  }

  suspend(): void {
    this.require('suspend');
    this.dispatch({ type: 'suspend' });
  }

  /** A user action (docs/contract/console.md §7) or a control API playback command; skips may wait for the server. */
  act(action: UserAction, by: 'user' | 'command'): Promise<void> {
    try {
      this.require(action);
    } catch (error) {
      return Promise.reject(error as PlaybackError);
    }
    if (action === 'skipNext' || action === 'skipPrev') {
      return new Promise<void>((resolve, reject) => {
        beginSkip(this.ctx, resolve, reject);
        const handled = this.dispatch({ type: action, by });
        if (!handled) {
          settleSkip(
            this.ctx,
            new PlaybackError(
              'ERROR_PLAYBACK_NO_CONTENT',
              action === 'skipNext' ? 'there is no next track' : 'there is no previous track',
            ),
          );
        } else if (this.ctx.skipping && !handled.waitsForServer) {
          // Skipped locally, nothing to wait for.
          settleSkip(this.ctx);
        }
      });
    }
    this.dispatch({ type: action, by });
    return Promise.resolve();
  }

  /** What each command would be refused with now (preconditions.ts): the command bar's and the workbench's reasons. */
  refusals(): Partial<Record<PlayerCommand, Refusal>> {
    return refusalsOf(preconditionInputs(this.ctx));
  }

  /** "Trigger now": sends the request a fault rule waits for, as the player would (trigger.ts). */
  trigger(request: TriggerRequest): Promise<Pick<TriggerResult, 'sent' | 'note'>> {
    return triggerRequest(this.core, request, {
      act: (action) => this.act(action, 'user'),
      refresh: () => this.refresh(),
    });
  }

  // ---------------------------------------------------------------- across restarts

  /** What a restart brings back (saved.ts). */
  save(): SavedPlayer {
    return toSaved(this.core);
  }

  /** Takes up what `save` kept, on a fresh player (saved.ts). */
  restore(saved: SavedPlayer): void {
    fromSaved(this.core, saved);
  }

  close(): void {
    this.own.closed = true;
    if (this.markUntold) clearImmediate(this.markUntold);
    this.markUntold = null;
    // Whatever answers now belongs to no queue: a version poll's answer asks for nothing, and a
    // window queued behind one in flight is not asked for (a successor asks again, saved.ts).
    closeRequests(this.ctx);
    for (const timer of this.timers.values()) this.deps.clock.clearTimeout(timer);
    this.timers.clear();
    settleLoad(this.ctx, new PlaybackError('ERROR_CLOUD_QUEUE_SERVER', 'the player closed'));
    settleSkip(this.ctx, new PlaybackError('ERROR_CLOUD_QUEUE_SERVER', 'the player closed'));
  }

  // ---------------------------------------------------------------- the machine

  /** Runs the first matching row of the table; returns it, or undefined when the event is ignored. */
  private dispatch(event: PlayerEvent, meta: { requestId?: string; detail?: string } = {}): Transition | undefined {
    if (this.ctx.closed) return undefined;
    const row = findTransition(this.ctx.state, event, guardInputs(this.ctx, event));
    if (!row) return undefined;
    const from = this.ctx.state;
    const to = row.to === 'same' ? from : row.to === 'previous' ? stateBeforeLoad(this.ctx, from) : row.to;
    this.own.state = to;
    // The one place an event meets its effects: each effect takes the events of the rows that
    // name it (EFFECT_EVENTS, held to the table by effects.test.ts), which the row's own `on` are.
    for (const effect of row.effects) (this.effects[effect] as (event: PlayerEvent) => void)(event);
    rescheduleVersionPoll(this.core);
    this.deps.onTransition?.({
      playerId: this.id,
      groupId: this.groupId,
      at: this.deps.clock.now(),
      from,
      to,
      event: event.type,
      cause: causeOf(event),
      transition: row.id,
      requestId: meta.requestId,
      detail: meta.detail ?? detailOf(event),
    });
    this.changed();
    return row;
  }

  /** See `PlayerCore.leaveRequests`. */
  private leaveRequests(why: string): void {
    // A window request of the queue left may still be in flight or waiting to retry: the next go now.
    leaveRequests(this.ctx);
    // (The track without an item id stays marked: a cut-off report must not name it.)
    dropHeldReports(this.core);
    setFirstWindowPending(this.ctx, false);
    settleSkip(this.ctx, new PlaybackError('ERROR_CLOUD_QUEUE_SERVER', why));
  }

  /** The machine part, which this class alone writes. */
  private get own(): MachinePart {
    return this.ctx as unknown as MachinePart;
  }

  /** Throws what the precondition table refuses `command` with now, if anything. */
  private require(command: PlayerCommand, args?: PreconditionInputs['args']): void {
    checkPreconditions(command, preconditionInputs(this.ctx, args));
  }

  private setTimer(name: TimerName, delayMs: number, callback: () => void): void {
    this.clearTimer(name);
    this.timers.set(
      name,
      this.deps.clock.setTimeout(
        () => {
          this.timers.delete(name);
          callback();
        },
        delayMs,
        `${this.id} ${name}`,
      ),
    );
  }

  private clearTimer(name: TimerName): void {
    const timer = this.timers.get(name);
    if (timer) this.deps.clock.clearTimeout(timer);
    this.timers.delete(name);
  }

  private changed(): void {
    // A queue left (played or loading) takes its run of failures with it.
    this.failingMark.prune(this.queuesNow());
    if (this.markUntold) {
      clearImmediate(this.markUntold);
      this.markUntold = null;
    }
    this.deps.onChange?.();
  }
}

function detailOf(event: PlayerEvent): string | undefined {
  if ('failure' in event) return event.failure.message;
  if (event.type === 'windowAnswered') return event.purpose;
  if (event.type === 'skipAnswered') return `${event.skipped} → ${event.target.id}`;
  if (event.type === 'seek') return `→ ${event.positionMillis} ms`;
  return undefined;
}

/** Exposed for tests that need a window response's shape. */
export type { ItemWindowResponse };
