/**
 * Commands of the fleet (docs/fleet.md): start N simulated players against a
 * cloud queue server, read the fleet live, stop it, and take its report as a file.
 */
import Type from 'typebox';
import { command } from '../command.js';
import type { FleetListItem, FleetReport, FleetReportFile } from '../fleet-types.js';
import { StrictFaultRuleSchema } from './faults.js';
import { Empty, HeaderValue, Id, Strict } from './shared.js';

/** The most players one fleet holds in one console: the bench measures 10,000 on two cores. */
export const MAX_FLEET_PLAYERS = 20_000;
/** A day of engine time, the longest fleet. */
export const MAX_FLEET_DURATION_MS = 86_400_000;
export const MAX_FLEET_SPEED = 1_000;

const Rate = Type.Number({ minimum: 0, maximum: 1 });
const EngineMs = Type.Integer({ minimum: 0, maximum: MAX_FLEET_DURATION_MS });

/**
 * A fleet's input holds no field it does not know, down to a rule's match and action: a misspelt
 * `threshold` started a fleet judged on nothing, a `startMs` written inside the rule started its
 * fault at once (audit AC-3, AC-6), and a misspelt match key (`reasn`) left a rule that matched
 * every request (review).
 */

export const FleetFaultSchema = Type.Object(
  {
    rule: StrictFaultRuleSchema,
    startMs: Type.Optional(EngineMs),
    durationMs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_FLEET_DURATION_MS })),
  },
  Strict,
);

export const fleetCommands = {
  'fleets.start': command<{ id: string }>()({
    summary:
      'Starts a fleet of simulated players (each the console\u2019s own player, with its own session) against the reference server or a baseUrl; follow it with GET /fleets/{id} or the fleet.progress events.',
    input: Type.Object(
      {
        players: Type.Integer({ minimum: 1, maximum: MAX_FLEET_PLAYERS }),
        baseUrl: Type.Optional(Type.String({ minLength: 8, maxLength: 2_048, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' })),
        authorization: Type.Optional(HeaderValue({ minLength: 1, maxLength: 8_192 })),
        durationMs: Type.Integer({ minimum: 1_000, maximum: MAX_FLEET_DURATION_MS }),
        rampMs: Type.Optional(EngineMs),
        speed: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_FLEET_SPEED })),
        skipRate: Type.Optional(Rate),
        pauseRate: Type.Optional(Rate),
        seekRate: Type.Optional(Rate),
        seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 4_294_967_295 })),
        workers: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
        faults: Type.Optional(Type.Array(FleetFaultSchema, { maxItems: 50 })),
        thresholds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 50 })),
        trafficSampleRate: Type.Optional(Rate),
      },
      Strict,
    ),
    http: { method: 'POST', path: '/fleets', status: 202 },
  }),
  'fleets.list': command<FleetListItem[]>()({
    summary:
      'The fleets the console keeps (the one playing and the last ten ended), newest first: id, status, players, start and end, and the thresholds\u2019 verdict.',
    input: Empty,
    http: { method: 'GET', path: '/fleets' },
  }),
  'fleets.get': command<FleetReport>()({
    summary:
      'A fleet as it plays or as it ended: players by state, requests by endpoint and reason, latency percentiles, retries, violations, thresholds.',
    input: Id,
    http: { method: 'GET', path: '/fleets/:id' },
  }),
  'fleets.stop': command<FleetReport>()({
    summary: 'Stops a running fleet (its players close) and answers its final report.',
    input: Id,
    http: { method: 'DELETE', path: '/fleets/:id' },
  }),
  'fleets.export': command<FleetReportFile>()({
    summary:
      'An ended fleet\u2019s report as a file: JSON, JUnit XML (one test case per threshold) or HTML with its charts.',
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      format: Type.Union([Type.Literal('json'), Type.Literal('junit'), Type.Literal('html')]),
    }),
    http: { method: 'GET', path: '/fleets/:id/export' },
    largeAnswer: true,
  }),
};
