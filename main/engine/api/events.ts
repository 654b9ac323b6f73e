/**
 * The engine's event table: what the engine pushes to its hosts (server-sent events for the admin
 * API and browsers, IPC messages in Electron). Each area declares its rows in `events/<area>.ts`.
 */
import type { CoreEvents } from './events/core.js';
import type { FaultTrafficEvents } from './events/faults.js';
import type { PlayerEvents } from './events/player.js';

export interface EngineEvents extends CoreEvents, PlayerEvents, FaultTrafficEvents {}

export type EventName = keyof EngineEvents;

/** One event as it travels: a name, its data, and a sequence number that orders all events. */
export type EngineEvent = { [N in EventName]: { name: N; seq: number; data: EngineEvents[N] } }[EventName];
