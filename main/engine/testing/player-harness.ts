/**
 * A player wired to a stub cloud queue server on a stopped engine clock: tests act, then move
 * time with `advance` (never sleeping) and read the requests, transitions and reports.
 */
import { EngineClock } from '../clock/clock.js';
import { CloudQueueClient, type HttpTransport, type PlayerExchange } from '../player/client.js';
import type { LoadParams } from '../player/events.js';
import { Player, type TransitionRecord } from '../player/player.js';
import { readSavedPlayer } from '../player/saved.js';
import { BUFFERING_MS } from '../player/audio.js';
import { ManualWall } from './manual-wall.js';
import { StubCloudQueue, type StubOptions } from './stub-cloud-queue.js';

export const T0 = 1_800_000_000_000;

export interface PlayerHarness {
  stub: StubCloudQueue;
  clock: EngineClock;
  player: Player;
  transitions: TransitionRecord[];
  exchanges: PlayerExchange[];
  /** Engine ms since the harness started. */
  elapsed(): number;
  advance(ms: number): Promise<void>;
  /** Lets in-flight requests finish without moving engine time. */
  settle(): Promise<void>;
  load(params?: Partial<LoadParams>): Promise<void>;
  /** Ids of the transition rows that fired, in order. */
  rows(): string[];
  /**
   * An engine restart, as the registry does one: the player's record saved (through JSON, as
   * stored), the player closed, and a fresh one on the same clock and server taking it up;
   * `player` is the new one from then on.
   */
  restart(): void;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** How the player's requests leave it (failure-injection tests wrap the default). */
  transport?: (clock: EngineClock) => HttpTransport;
}

export async function playerHarness(
  options: StubOptions = {},
  { transport }: HarnessOptions = {},
): Promise<PlayerHarness> {
  const stub = await new StubCloudQueue(options).start();
  const clock = new EngineClock({ wall: new ManualWall(T0), startAt: T0, speed: 0, settleTimeoutMs: 500 });
  const transitions: TransitionRecord[] = [];
  const exchanges: PlayerExchange[] = [];
  const newPlayer = () => {
    const client = new CloudQueueClient({
      playerId: 'player-test',
      clock,
      transport: transport?.(clock),
      onExchange: (e) => exchanges.push(e),
    });
    return new Player({
      playerId: 'player-test',
      groupId: 'group-test',
      clock,
      client,
      onTransition: (r) => transitions.push(r),
    });
  };
  const player = newPlayer();
  player.createSession('com.example.app', 'test');
  const harness: PlayerHarness = {
    stub,
    clock,
    player,
    transitions,
    exchanges,
    elapsed: () => clock.now() - T0,
    advance: (ms) => clock.advance(ms),
    settle: () => clock.advance(0),
    load: (params = {}) =>
      player.load({
        queueBaseUrl: stub.baseUrl,
        httpAuthorization: 'Bearer queue-token',
        playOnCompletion: true,
        ...params,
      }),
    rows: () => transitions.map((t) => t.transition),
    restart: () => {
      // Read back as the registry reads a stored record.
      const saved = readSavedPlayer(JSON.parse(JSON.stringify(harness.player.save())));
      if (!saved) throw new Error('the player saved a record it cannot read back');
      harness.player.close();
      harness.player = newPlayer();
      harness.player.restore(saved);
    },
    close: async () => {
      harness.player.close();
      clock.close();
      await stub.close();
    },
  };
  return harness;
}

/** A harness whose player loaded the stub's queue with playOnCompletion and already plays. */
export async function playingHarness(
  options: StubOptions = {},
  harnessOptions: HarnessOptions = {},
): Promise<PlayerHarness> {
  const h = await playerHarness(options, harnessOptions);
  await h.load();
  await h.advance(BUFFERING_MS);
  return h;
}
