/**
 * The player's state machine as one readable table: state, event, guard, next state, effects.
 * docs/contract/platform.md §3 names some rows; the rest are what a real player does between them. For one
 * (state, event) the guarded rows exclude each other, each guard saying all it checks; a row
 * marked `fallback` applies only when no row above it matched, in order (transitions.test.ts
 * holds the table to this). An event no row matches is ignored. The rows sit in one file per
 * group of events (transitions-*.ts), put together here in order; when each guard holds lives in
 * GUARDS (transition-schema.ts), what each effect does in effects.ts. The console's player panel
 * draws its state diagram from this same table.
 */
import type { PlayerEvent } from './events.js';
import type { MachineState } from './states.js';
import { GUARDS, type GuardContext, type Transition } from './transition-schema.js';
import { FAILURE_ROWS } from './transitions-failures.js';
import { LOAD_ROWS } from './transitions-load.js';
import { PLAY_ROWS } from './transitions-play.js';
import { SKIP_ROWS } from './transitions-skips.js';
import { TRACK_END_ROWS } from './transitions-track-end.js';

export {
  EFFECTS,
  GUARDS,
  type EffectName,
  type GuardContext,
  type GuardName,
  type Target,
  type Transition,
} from './transition-schema.js';

export const TRANSITIONS: readonly Transition[] = [
  ...LOAD_ROWS,
  ...PLAY_ROWS,
  ...TRACK_END_ROWS,
  ...SKIP_ROWS,
  ...FAILURE_ROWS,
];

export function findTransition(state: MachineState, event: PlayerEvent, context: GuardContext): Transition | undefined {
  return TRANSITIONS.find(
    (row) =>
      row.from.includes(state) && row.on.includes(event.type) && (!row.guard || GUARDS[row.guard](context, event)),
  );
}
