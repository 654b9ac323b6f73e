/**
 * The engine's event table: what the engine pushes to its hosts (server-sent events for the admin
 * API and browsers, IPC messages in Electron). Each area declares its rows in `events/<area>.ts`.
 */
import type { CoreEvents } from './events/core.js';
import type { OAuthEvents } from './events/oauth.js';
import type { HouseholdEvents } from './events/household.js';
import type { QueueEvents } from './events/queues.js';
import type { FaultTrafficEvents } from './events/faults.js';
import type { PlayerEvents } from './events/player.js';
import type { ScenarioEvents } from './events/scenarios.js';
import type { ConformanceEvents } from './events/conformance.js';
import type { DeliveryEvents } from './events/deliveries.js';
import type { FleetEvents } from './events/fleet.js';

/** Every area's events; an area adds its interface to this list. */
export interface EngineEvents
  extends
    CoreEvents,
    OAuthEvents,
    HouseholdEvents,
    QueueEvents,
    PlayerEvents,
    FaultTrafficEvents,
    ScenarioEvents,
    DeliveryEvents,
    ConformanceEvents,
    FleetEvents {}

export type EventName = keyof EngineEvents;

/**
 * Events the console's own UI does not subscribe to, over IPC or the event stream: it reads
 * `traffic.appended` as its cue instead. Under load `traffic.captured` carries thousands of
 * summaries a second, which the engine would decode and send only for the UI to drop them.
 */
export const UI_OMITTED_EVENTS: readonly EventName[] = ['traffic.captured'];

/** One event as it travels: a name, its data, and a sequence number that orders all events. */
export type EngineEvent = { [N in EventName]: { name: N; seq: number; data: EngineEvents[N] } }[EventName];
