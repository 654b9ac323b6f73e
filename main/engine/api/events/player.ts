import type { PlayerDetail, PlayerTransition, PlayerViolation } from '../player-types.js';

/** Events of the simulated players. */
export interface PlayerEvents {
  /** Anything a player panel shows changed. */
  'player.changed': PlayerDetail;
  /** One row of the transition table fired. */
  'player.transition': PlayerTransition;
  /** A cloud queue response broke the contract. */
  'player.violation': PlayerViolation;
}
