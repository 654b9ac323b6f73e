import type { ClockState } from '../types.js';

/** Events of the engine itself. */
export interface CoreEvents {
  'clock.changed': ClockState;
}
