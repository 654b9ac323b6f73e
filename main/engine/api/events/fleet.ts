import type { FleetTick } from '../fleet-types.js';

/** Events of fleets (docs/fleet.md): one a second of wall time while a fleet plays, and one when it ends. */
export interface FleetEvents {
  'fleet.progress': { id: string; tick: FleetTick; ended: boolean };
}
