import type { ClockState, EngineWarning } from '../types.js';

/** Events of the engine itself. */
export interface CoreEvents {
  'clock.changed': ClockState;
  /** A warning was added to `state.get`'s, or happened again (at most once a second per warning). */
  'engine.warning': EngineWarning;
}
