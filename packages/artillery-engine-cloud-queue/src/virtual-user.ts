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
  /** Stops the listener and the player: every timer they armed is cleared. */
  close(): void;
}

export function startVirtualUser(options: VirtualUserOptions): VirtualUser {
  const clock = new EngineClock({ speed: options.speed });
  // As a fleet does: once the player closes, what its aborted requests answer is not measured.
  let open = true;
  const client = new CloudQueueClient({
    playerId: options.playerId,
    clock,
    // As a fleet's players: the server answers in real time, so a request has 10 s of it at any
    // speed (on the engine clock, at speed 10 a server taking 1 s was counted as gone: audit AC-2).
    timeouts: systemWall,
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
  return {
    get state() {
      return player.machineState;
    },
    close() {
      open = false;
      listener.close();
      player.close();
      clock.close();
    },
  };
}
