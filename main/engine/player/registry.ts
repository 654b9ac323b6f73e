/**
 * One simulated player per group (issue: "One player per group"), named after its coordinator.
 * The registry follows the household: a new group gets a player, a group that disappears takes
 * its player with it. It records every transition (stored, and pushed as an event), and keeps
 * what each player holds for the next start (saved.ts): taken up by `resume` once the engine
 * listens, then saved after the changes of a turn of the event loop and once more on close, so a
 * clean stop keeps the playhead exact and a crash keeps the player as its last change left it.
 */
import type { EngineClock } from '../clock/clock.js';
import {
  DETAIL_VIOLATIONS,
  type PlayerDetail,
  type PlayerTransition,
  type PlayerViolation,
} from '../api/player-types.js';
import type { EventBus } from '../events/bus.js';
import { messageOf } from '../api/errors.js';
import type { EngineWarnings } from '../warnings.js';
import { idleStatus, type PlaybackStatus } from '../household/views.js';
import type { Player as PlayerRecord } from '../store/repositories/players.js';
import type { Store } from '../store/store.js';
import { CloudQueueClient, type CloudQueueClientOptions, type HttpTransport, type PlayerExchange } from './client.js';
import type { Violation } from './contract-check.js';
import { Player, type TransitionRecord } from './player.js';
import { shownSnapshot } from './detail-view.js';
import { apartFromWindow, movedToOwnServer, readSavedPlayer, savedWindowLost } from './saved.js';
import type { ItemWindowResponse } from './wire.js';

export interface PlayerRegistryDeps {
  store: Pick<Store, 'groups' | 'players' | 'playerTransitions' | 'playerSaved' | 'playerViolations'>;
  clock: EngineClock;
  bus: Pick<EventBus, 'emit' | 'wants'>;
  /** How player requests leave the engine (the failure-injection layer wraps it). */
  transport?: HttpTransport;
  /**
   * Every request a player makes, for the traffic log: answers the id of the entry that records
   * it (null or nothing when none does), which the exchange's violations point at.
   */
  onExchange?: (exchange: PlayerExchange) => number | null | void;
  /** Where a player whose state could not be saved or taken up is told (and logged). */
  warnings?: Pick<EngineWarnings, 'warn'>;
  /** Counts the players' requests under way (the journal reads it; requests-in-flight.ts). */
  inFlight?: CloudQueueClientOptions['inFlight'];
}

export class PlayerRegistry {
  private readonly byGroup = new Map<string, Player>();
  /** Players changed since the last save, saved together once the current turn is over. */
  private readonly unsaved = new Set<Player>();
  private saveSoon: NodeJS.Immediate | null = null;
  /** The console's own cloud queue server, once `resume` ran; until then nothing is saved. */
  private ownCloudQueue: string | null = null;
  /** Each player's newest DETAIL_VIOLATIONS violations, read from the store for its first detail and kept up to date after. */
  private readonly recentViolations = new Map<string, PlayerViolation[]>();
  /**
   * The window each player's stored record was last saved with (null: none), kept apart from the
   * record and written again only when the player holds another (PlayerSavedRepository). Set once
   * a save went through (one that failed changed nothing stored); not known for a player made
   * since the start, whose first save writes it.
   */
  private readonly storedWindows = new WeakMap<Player, ItemWindowResponse | null>();
  /** Told the group of every player that changed (event delivery: it reads what it needs itself). */
  private readonly groupListeners = new Set<(groupId: string) => void>();
  constructor(private readonly deps: PlayerRegistryDeps) {
    this.sync();
  }

  /** Makes the players match the groups of the household. */
  sync(): void {
    const groups = this.deps.store.groups.list();
    const live = new Set(groups.map((g) => g.id));
    for (const [groupId, player] of this.byGroup) {
      const group = groups.find((g) => g.id === groupId);
      if (!live.has(groupId) || group?.coordinatorId !== player.id) {
        player.close();
        this.byGroup.delete(groupId);
        // Its group is gone or led by another player now: there is nothing to come back to.
        this.unsaved.delete(player);
        this.deps.store.playerSaved.delete(player.id);
      }
    }
    for (const group of groups) {
      if (!this.byGroup.has(group.id)) this.byGroup.set(group.id, this.create(group.coordinatorId, group.id));
    }
  }

  /**
   * Each player takes up what it had when the engine last stopped. Called once the console's own
   * servers listen: a queue of its own is found at its new port, and no player asks a server
   * before there is one. Records of players that lead another group now are left unused.
   */
  resume(ownCloudQueue: string): void {
    this.ownCloudQueue = ownCloudQueue;
    for (const [groupId, player] of this.byGroup) {
      const saved = this.deps.store.playerSaved.get(player.id);
      const ours = saved?.groupId === groupId ? saved : undefined;
      const record = ours ? readSavedPlayer(ours.record, ours.window) : null;
      if (ours && !record && savedWindowLost(ours.record, ours.window))
        this.deps.warnings?.warn(
          'player-saved',
          `player ${player.id} could not take up what it had before the restart (the window it held was lost): it starts idle`,
        );
      if (!ours || !record) continue;
      try {
        player.restore(movedToOwnServer(record, ours.ownCloudQueue, ownCloudQueue));
      } catch (error) {
        // A record this version cannot take up must not keep the console from starting: the
        // player starts idle instead (and its next change replaces the record).
        this.deps.warnings?.warn(
          'player-saved',
          `player ${player.id} could not take up what it had before the restart (${messageOf(error)}): it starts idle`,
          error,
        );
        player.close();
        this.byGroup.set(groupId, this.create(player.id, groupId));
      }
    }
  }

  forGroup(groupId: string): Player | undefined {
    return this.byGroup.get(groupId);
  }

  /** The player of the group a household player belongs to. */
  forPlayer(playerId: string): Player | undefined {
    const record = this.deps.store.players.get(playerId);
    return record && this.byGroup.get(record.groupId);
  }

  forSession(sessionId: string): Player | undefined {
    return [...this.byGroup.values()].find((p) => p.currentSession?.id === sessionId);
  }

  wasEvicted(sessionId: string): boolean {
    return [...this.byGroup.values()].some((p) => p.wasEvicted(sessionId));
  }

  all(): Player[] {
    return [...this.byGroup.values()];
  }

  /** Live playback state of a household player, for the household views. */
  statusOf = (record: PlayerRecord): PlaybackStatus => {
    const player = this.byGroup.get(record.groupId);
    if (!player) return idleStatus(record);
    const { playbackState, suspended, itemId, positionMillis } = player.status();
    return { playbackState, suspended, itemId, positionMillis, failing: player.failing };
  };

  /**
   * Calls `listener` with the group of every player that changes, after the change's
   * `player.changed` event (if anyone listens to it). Answers the function that stops it.
   */
  onGroupChanged(listener: (groupId: string) => void): () => void {
    this.groupListeners.add(listener);
    return () => {
      this.groupListeners.delete(listener);
    };
  }

  detail(player: Player): PlayerDetail {
    return {
      id: player.id,
      groupId: player.groupId,
      at: this.deps.clock.now(),
      ...shownSnapshot(player.snapshot()),
      violations: [...this.newestViolations(player.id)],
      refusals: player.refusals(),
    } as PlayerDetail;
  }

  transitions(playerId: string, limit: number): PlayerTransition[] {
    return this.deps.store.playerTransitions.recent(playerId, limit) as PlayerTransition[];
  }

  /** The newest `limit` violations of a player, oldest first (docs/contract/console.md §5). */
  violations(playerId: string, limit: number): PlayerViolation[] {
    return this.deps.store.playerViolations.recent(playerId, limit);
  }

  close(): void {
    if (this.saveSoon) clearImmediate(this.saveSoon);
    this.saveSoon = null;
    this.unsaved.clear();
    for (const player of this.byGroup.values()) {
      // An engine that stopped before it listened never took up the records: they stay as they are.
      if (this.ownCloudQueue !== null) this.save(player);
      player.close();
    }
    this.byGroup.clear();
  }

  private create(playerId: string, groupId: string): Player {
    const { clock } = this.deps;
    const client = new CloudQueueClient({
      playerId,
      clock,
      transport: this.deps.transport,
      ...(this.deps.inFlight ? { inFlight: this.deps.inFlight } : {}),
      onExchange: (exchange) => {
        const trafficId = this.deps.onExchange?.(exchange);
        exchange.trafficId = typeof trafficId === 'number' ? trafficId : null;
        player.noteExchange(exchange);
      },
    });
    const player: Player = new Player({
      playerId,
      groupId,
      clock,
      client,
      onTransition: (record) => this.record(record),
      onViolations: (violations, exchange) => this.noteViolations(player, violations, exchange),
      onChange: (change) => {
        this.changed(player);
        if (change?.saved !== false) this.saveLater(player);
      },
    });
    return player;
  }

  private saveLater(player: Player): void {
    // A player that left the registry (its group went, or the engine is closing) keeps nothing:
    // a late answer to it must not write back a record `sync` deleted.
    if (this.ownCloudQueue === null || this.byGroup.get(player.groupId) !== player) return;
    this.unsaved.add(player);
    this.saveSoon ??= setImmediate(() => {
      this.saveSoon = null;
      for (const changed of this.unsaved) this.save(changed);
      this.unsaved.clear();
    });
  }

  private save(player: Player): void {
    try {
      const { groupId } = player;
      const { record, window } = apartFromWindow(player.save());
      const stored = this.storedWindows.get(player);
      this.deps.store.playerSaved.save(
        player.id,
        { groupId, savedAt: this.deps.clock.now(), ownCloudQueue: this.ownCloudQueue, record },
        // The window the store holds for this player already, or the one to hold now.
        stored !== undefined && stored === window ? undefined : window,
      );
      this.storedWindows.set(player, window);
    } catch (error) {
      // Playback goes on; only the next start would miss this change.
      this.deps.warnings?.warn(
        'player-saved',
        `could not save player ${player.id} (${messageOf(error)}): a restart would find it as it was before this change`,
        error,
      );
    }
  }

  private newestViolations(playerId: string): PlayerViolation[] {
    let newest = this.recentViolations.get(playerId);
    if (!newest) {
      newest = this.deps.store.playerViolations.recent(playerId, DETAIL_VIOLATIONS);
      this.recentViolations.set(playerId, newest);
    }
    return newest;
  }

  /**
   * Stores what a response broke, with the traffic entry of its exchange, and pushes each one. A
   * store that fails loses them (with a warning), never the player's work: they are a diagnosis.
   */
  private noteViolations(player: Player, violations: readonly Violation[], exchange: PlayerExchange): void {
    const at = exchange.startedAt + exchange.durationMs;
    let stored: PlayerViolation[];
    try {
      stored = this.deps.store.playerViolations.addAll(
        violations.map((v) => ({
          at,
          playerId: player.id,
          level: v.severity === 'malformed' ? 'error' : 'warning',
          rule: v.rule,
          message: v.message,
          trafficId: exchange.trafficId,
        })),
      );
    } catch (error) {
      this.deps.warnings?.warn(
        'player-saved',
        `could not store the contract violations of player ${player.id} (${messageOf(error)}): they are not kept`,
        error,
      );
      return;
    }
    // Kept up to date once read; not read yet, the first read from the store holds these already.
    const newest = this.recentViolations.get(player.id);
    if (newest) {
      newest.push(...stored);
      newest.splice(0, Math.max(0, newest.length - DETAIL_VIOLATIONS));
    }
    for (const violation of stored) this.deps.bus.emit('player.violation', violation);
    // The detail carries the newest: it changed.
    if (this.byGroup.get(player.groupId) === player) this.changed(player);
  }

  /**
   * Tells a player's change: its detail as an event, built only for someone who reads it (a
   * console page, a script's event stream), and its group to the group listeners. Built for
   * nobody, the detail cost about 28 µs a change, 2–3% of a day of playback
   * (docs/decisions/perf-playback-24h.md).
   */
  private changed(player: Player): void {
    if (this.deps.bus.wants('player.changed')) this.deps.bus.emit('player.changed', this.detail(player));
    for (const listener of this.groupListeners) {
      // As the bus keeps its listeners apart: one that throws must not stop the player's change.
      try {
        listener(player.groupId);
      } catch (error) {
        console.error(`a group listener failed on player ${player.id}`, error);
      }
    }
  }

  private record(record: TransitionRecord): void {
    const stored = this.deps.store.playerTransitions.add({
      playerId: record.playerId,
      groupId: record.groupId,
      at: record.at,
      from: record.from,
      to: record.to,
      event: record.event,
      cause: record.cause,
      transition: record.transition,
      requestId: record.requestId ?? null,
      detail: record.detail ?? null,
    });
    this.deps.bus.emit('player.transition', stored as PlayerTransition);
  }
}
