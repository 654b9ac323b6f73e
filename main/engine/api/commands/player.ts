/** Commands of the simulated players: the panel's buttons, its timeline, and the command bar. */
import Type from 'typebox';
import { command } from '../command.js';
import { PLAYER_VIOLATIONS_KEPT, type PlayerDetail, type PlayerTransition, type PlayerViolation, type TransitionRow } from '../player-types.js';
import { Empty, Id } from './shared.js';

const PlayerActionSchema = Type.Union([Type.Literal('play'), Type.Literal('pause'), Type.Literal('skipNext'), Type.Literal('skipPrev'), Type.Literal('resume')]);

export interface ControlExchange {
  method: string;
  url: string;
  requestBody: unknown;
  status: number;
  /** Engine ms the call took. */
  durationMs: number;
  body: unknown;
}

export const playerCommands = {
  'players.act': command<PlayerDetail>()({
    summary: 'A user action at the player, as from its own buttons (docs/contract/console.md §7). Skips may wait for the server.',
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
    input: Type.Object({ id: Type.String({ minLength: 1 }), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5_000 })) }),
    http: { method: 'GET', path: '/players/:id/transitions' },
  }),
  'players.violations': command<{ violations: PlayerViolation[] }>()({
    summary: 'The contract violations a player found in its cloud queue server\u2019s responses, the newest `limit` (all it keeps: 1,000), oldest first, each with its traffic entry (docs/contract/console.md §5).',
    input: Type.Object({ id: Type.String({ minLength: 1 }), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PLAYER_VIOLATIONS_KEPT })) }),
    http: { method: 'GET', path: '/players/:id/violations' },
  }),
  'players.table': command<TransitionRow[]>()({
    summary: 'The player state machine as its table of rows (state, event, guard, next state, effects).',
    input: Empty,
    http: { method: 'GET', path: '/player-table' },
  }),
  'control.send': command<ControlExchange>()({
    summary: 'Sends a request to the control API with the console\u2019s own access token, exactly as an integration would.',
    input: Type.Object({
      method: Type.Union([Type.Literal('GET'), Type.Literal('POST')]),
      // Ours, or the real service's base path (docs/contract/console.md §3): both reach the same API.
      path: Type.String({ pattern: '^/(control/)?api/v1/' }),
      body: Type.Optional(Type.Unknown()),
    }),
    http: { method: 'POST', path: '/control/send' },
  }),
};
