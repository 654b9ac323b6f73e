import type { GroupView, HouseholdView, PlayerView } from '../types.js';

/** Events of the household model. */
export interface HouseholdEvents {
  /** Players were added, renamed, removed, grouped or ungrouped: the household as it is now. */
  'household.changed': { households: HouseholdView[]; groups: GroupView[]; players: PlayerView[] };
}
