/**
 * The engine's event table: what the engine pushes to its hosts (server-sent events for the admin
 * API and browsers, IPC messages in Electron). Each area declares its rows in `events/<area>.ts`.
 */
import type { CoreEvents } from './events/core.js';
import type { HouseholdEvents } from './events/household.js';
import type { OAuthEvents } from './events/oauth.js';
import type { QueueEvents } from './events/queues.js';

/** Areas extend this list. */
export interface EngineEvents extends CoreEvents, OAuthEvents, HouseholdEvents, QueueEvents {}

export type EventName = keyof EngineEvents;

/** One event as it travels: a name, its data, and a sequence number that orders all events. */
export type EngineEvent = { [N in EventName]: { name: N; seq: number; data: EngineEvents[N] } }[EventName];
