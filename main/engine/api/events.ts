/**
 * The engine's event table: what the engine pushes to its hosts (server-sent events for the admin
 * API and browsers, IPC messages in Electron). One row per event name.
 */
import type { ClockState } from './types.js';

export interface EngineEvents {
  'clock.changed': ClockState;
}

export type EventName = keyof EngineEvents;

/** One event as it travels: a name, its data, and a sequence number that orders all events. */
export type EngineEvent = { [N in EventName]: { name: N; seq: number; data: EngineEvents[N] } }[EventName];
