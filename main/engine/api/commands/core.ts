/** Commands of the engine itself: overview, clock, players. */
import Type from 'typebox';
import { command } from '../command.js';
import type { OpenApiDocument } from '../openapi-types.js';
import type { PlayerDetail } from '../player-types.js';
import type { ClockState, EngineStateView, PlayerView, UiPreferences } from '../types.js';
import { Empty, Id, Strict } from './shared.js';

/** The fastest the engine clock runs: `POST /clock`, a scenario's and a bundle's clock, and `--clock-speed` alike. */
export const MAX_CLOCK_SPEED = 100_000;
/** The most one clock step (`POST /clock {advanceMs}`, a scenario's clock step) moves time: a leap year. */
export const MAX_CLOCK_STEP_MS = 366 * 24 * 3_600_000;

export const coreCommands = {
  'api.describe': command<OpenApiDocument>()({
    summary: 'This admin API as OpenAPI 3.1, generated from the command table when the engine starts.',
    input: Empty,
    http: { method: 'GET', path: '/openapi.json' },
  }),
  'state.get': command<EngineStateView>()({
    summary: 'Everything the console shows at a glance: clock, service URLs, household, players.',
    input: Empty,
    http: { method: 'GET', path: '/state' },
  }),
  'clock.get': command<ClockState>()({
    summary: 'Engine time (epoch ms) and speed.',
    input: Empty,
    http: { method: 'GET', path: '/clock' },
  }),
  'clock.set': command<ClockState>()({
    summary: 'Sets the speed (0 stops the clock) and/or advances engine time, running due timers.',
    input: Type.Object({
      speed: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_CLOCK_SPEED })),
      advanceMs: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_CLOCK_STEP_MS })),
    }),
    http: { method: 'POST', path: '/clock' },
  }),
  'preferences.get': command<UiPreferences>()({
    summary:
      "What the console's UI remembers of its user (theme, the guided demo closed), kept in the data dir: a browser keeps it per origin, and `--port 0` gives each start another.",
    input: Empty,
    http: { method: 'GET', path: '/preferences' },
  }),
  'preferences.update': command<UiPreferences>()({
    summary: 'Changes what the UI remembers; fields not sent stay as they were. Answers them all.',
    input: Type.Object(
      {
        theme: Type.Optional(Type.Union([Type.Literal('system'), Type.Literal('light'), Type.Literal('dark')])),
        demoDismissed: Type.Optional(Type.Boolean()),
      },
      Strict,
    ),
    http: { method: 'PATCH', path: '/preferences' },
  }),
  'players.list': command<PlayerView[]>()({
    summary: 'Every player of every household with its live playback state.',
    input: Empty,
    http: { method: 'GET', path: '/players' },
  }),
  'players.get': command<PlayerView & PlayerDetail>()({
    summary:
      'One player with its live playback state and its detail: session, window, policies, lastError, failing, retries, the newest 20 violations.',
    input: Id,
    http: { method: 'GET', path: '/players/:id' },
  }),
};
