/** Commands of the simulated players: the panel's buttons, its timeline, and the command bar. */
import Type, { type Static } from 'typebox';
import { command } from '../command.js';
import type { TriggerResult } from '../fault-types.js';
import {
  PLAYER_VIOLATIONS_KEPT,
  type PlayerAction,
  type PlayerDetail,
  type PlayerTransition,
  type PlayerViolation,
  type TransitionRow,
} from '../player-types.js';
import { TriggerRequestSchema } from './faults.js';
import { Empty, Id, type Same } from './shared.js';

/** A user action at a player, as from its buttons (and a scenario's `action` step). */
export const PlayerActionSchema = Type.Union([
  Type.Literal('play'),
  Type.Literal('pause'),
  Type.Literal('skipNext'),
  Type.Literal('skipPrev'),
  Type.Literal('resume'),
]);
const sameActions: Same<Static<typeof PlayerActionSchema>, PlayerAction> = true;
void sameActions;

export interface ControlExchange {
  method: string;
  url: string;
  requestBody: unknown;
  status: number;
  /** Engine ms the call took. */
  durationMs: number;
  body: unknown;
  /** Whose access token the call carried: the console's own, or an integration's grant (`as`). */
  sentAs: ControlSenderRef;
}

/** Who a command bar call is sent as. */
export type ControlSenderRef =
  { kind: 'console' } | { kind: 'grant'; grantId: string; integrationId: string; integrationName: string };

/**
 * A grant the console can send control calls as: one whose access token it saw issued in this run
 * (tokens are stored only as hashes, so one issued before a restart cannot be sent again).
 */
export interface ControlSender {
  grantId: string;
  integrationId: string;
  integrationName: string;
  clientId: string;
  username: string;
  householdId: string;
  /** The first characters of the access token it would send. */
  tokenHint: string;
  /** Engine time the token expires. */
  expiresAt: number;
  /** The inspector flow of the grant. */
  flowId: string | null;
}

/** An example request for the command bar, filled from the household, the sessions and the queues. */
export interface ControlExample {
  id: string;
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** What is still to fill in, or why this example is what it is. */
  note?: string;
}

export const playerCommands = {
  'players.act': command<PlayerDetail>()({
    summary:
      'A user action at the player, as from its own buttons (docs/contract/console.md §7). Skips may wait for the server.',
    input: Type.Object({ id: Type.String({ minLength: 1 }), action: PlayerActionSchema }),
    http: { method: 'POST', path: '/players/:id/actions' },
  }),
  'players.detail': command<PlayerDetail>()({
    summary: 'Everything the player panel shows of one player: state, session, window, policies, now playing.',
    input: Id,
    http: { method: 'GET', path: '/players/:id/detail' },
  }),
  'players.transitions': command<PlayerTransition[]>()({
    summary: 'The newest transitions of a player, oldest first, each with its cause.',
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5_000 })),
    }),
    http: { method: 'GET', path: '/players/:id/transitions' },
  }),
  'players.violations': command<{ violations: PlayerViolation[] }>()({
    summary:
      'The contract violations a player found in its cloud queue server\u2019s responses, the newest `limit` (all it keeps: 1,000), oldest first, each with its traffic entry (docs/contract/console.md §5).',
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PLAYER_VIOLATIONS_KEPT })),
    }),
    http: { method: 'GET', path: '/players/:id/violations' },
  }),
  'players.table': command<TransitionRow[]>()({
    summary: 'The player state machine as its table of rows (state, event, guard, next state, effects).',
    input: Empty,
    http: { method: 'GET', path: '/player-table' },
  }),
  'players.trigger': command<TriggerResult>()({
    summary:
      'Sends a player request now, as the player would send it on its own: `refresh` (as refreshCloudQueue), `nextWindow`, `versionPoll`, `context`, or the user\u2019s `skipNext`, `skipPrev`, `pause`, `play`; refused with the reason when the player would not send it now.',
    input: Type.Object({ id: Type.String({ minLength: 1 }), request: TriggerRequestSchema }),
    http: { method: 'POST', path: '/players/:id/trigger' },
  }),
  'control.send': command<ControlExchange>()({
    summary:
      'Sends a request to the control API with the console\u2019s own access token, or with the current access token of a grant (`as: {grantId}`, one of `control.senders`), exactly as an integration would.',
    input: Type.Object({
      method: Type.Union([Type.Literal('GET'), Type.Literal('POST')]),
      // Ours, or the real service's base path (docs/contract/console.md §3): both reach the same API.
      path: Type.String({ pattern: '^/(control/)?api/v1/' }),
      body: Type.Optional(Type.Unknown()),
      as: Type.Optional(Type.Object({ grantId: Type.String({ minLength: 1, maxLength: 200 }) })),
    }),
    http: { method: 'POST', path: '/control/send' },
  }),
  'control.senders': command<ControlSender[]>()({
    summary:
      'The grants `control.send` can send as: those whose live access token the console saw issued in this run, newest first.',
    input: Empty,
    http: { method: 'GET', path: '/control/senders' },
  }),
  'control.examples': command<ControlExample[]>()({
    summary:
      'Example control API requests for the command bar, filled from the household (the group `groupId`, or the first), its player\u2019s session (if any) and the first queue (its base URL, httpAuthorization and first item).',
    input: Type.Object({ groupId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
    http: { method: 'GET', path: '/control/examples' },
  }),
};
