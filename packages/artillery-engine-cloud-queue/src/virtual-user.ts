/**
 * One Artillery virtual user: one of the console's own players (main/engine/player/player.ts, the
 * same transition table, request policies, retries and reports), with a fleet listener in front of
 * it (main/engine/fleet/listener.ts), wired as a fleet wires each of its players. It plays on an
 * engine clock of its own at the scenario's speed, so a VU's "seconds" are listening time.
 */
import type { FleetPlayerState } from '../../../main/engine/api/fleet-types.js';
import { EngineClock } from '../../../main/engine/clock/clock.js';
import { systemWall } from '../../../main/engine/clock/wall.js';
import { Listener, listenerRandom, type ListenerRates } from '../../../main/engine/fleet/listener.js';
import { RequestsOut } from '../../../main/engine/fleet/requests-out.js';
import { CloudQueueClient, type PlayerExchange } from '../../../main/engine/player/client.js';
import { Player } from '../../../main/engine/player/player.js';

export interface VirtualUserOptions {
  playerId: string;
  /** Picks this player's listener from the seed, as a fleet's player number does. */
  playerNumber: number;
  queueBaseUrl: string;
  authorization?: string;
  speed: number;
  seed: number;
  rates: ListenerRates;
  onExchange: (exchange: PlayerExchange) => void;
}

export interface VirtualUser {
  readonly state: FleetPlayerState;
  /**
   * Its play time is up: it asks nothing more (its clock stops, its listener closes), waits for
   * the requests it has out, as a fleet's end does (up to their 10 s), so that each is counted,
   * then closes its player. Closed at once, a VU of 10 s or less against a server that never
   * answers reported no request and no error (review).
   */
  end(): Promise<void>;
  /** Stops the listener and the player at once: every timer they armed is cleared. */
  close(): void;
}

export function startVirtualUser(options: VirtualUserOptions): VirtualUser {
  const clock = new EngineClock({ speed: options.speed });
  // As a fleet does: once the player closes, what its aborted requests answer is not measured.
  let open = true;
  // As a fleet's players: the server answers in real time, so a request has 10 s of it at any
  // speed (on the engine clock, at speed 10 a server taking 1 s was counted as gone: audit AC-2).
  const out = new RequestsOut(systemWall);
  const client = new CloudQueueClient({
    playerId: options.playerId,
    clock,
    timeouts: out.timeouts,
    onExchange: (exchange) => open && options.onExchange(exchange),
  });
  const holder: { listener?: Listener } = {};
  const player = new Player({
    playerId: options.playerId,
    groupId: options.playerId,
    clock,
    client,
    onTransition: (record) => holder.listener?.onTransition(record),
  });
  const listener = (holder.listener = new Listener(
    player,
    clock,
    listenerRandom(options.seed, options.playerNumber),
    options.rates,
    {
      queueBaseUrl: options.queueBaseUrl,
      ...(options.authorization ? { httpAuthorization: options.authorization } : {}),
      playOnCompletion: true,
    },
  ));
  listener.start();
  const close = () => {
    open = false;
    listener.close();
    player.close();
    clock.close();
  };
  return {
    get state() {
      return player.machineState;
    },
    async end() {
      clock.setSpeed(0);
      listener.close();
      await out.settled();
      close();
    },
    close,
  };
}
