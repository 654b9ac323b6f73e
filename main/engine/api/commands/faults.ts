/** Commands of failure injection and the traffic log (docs/contract/console.md §7 faults and traffic rows). */
import Type, { type Static, type TObjectOptions } from 'typebox';
import { command } from '../command.js';
import {
  FAULT_RANGES,
  type FaultAction,
  type FaultMatch,
  type FaultRule,
  type FaultRuleInput,
  type FaultRuleView,
  type TriggerRequest,
  type TriggerResult,
} from '../fault-types.js';
import {
  TRAFFIC_EXPORT_MAX,
  TRAFFIC_RETENTION_BYTES_MAX,
  TRAFFIC_RETENTION_BYTES_MIN,
  TRAFFIC_STATUS_FILTER_PATTERN,
  type TrafficEntry,
  type TrafficSettings,
  type TrafficSummary,
} from '../traffic-types.js';
import type { HarLog } from '../har-types.js';
import { Empty, HeaderValue, Id, Strict, Whole, type Same, type SameFields } from './shared.js';

const Target = Type.Union([
  Type.Literal('login'),
  Type.Literal('control'),
  Type.Literal('cloudQueue'),
  Type.Literal('player'),
  Type.Literal('events'),
]);
const TrafficTargetSchema = Type.Union([
  Type.Literal('console'),
  Type.Literal('login'),
  Type.Literal('control'),
  Type.Literal('cloudQueue'),
  Type.Literal('player'),
  Type.Literal('events'),
]);

/**
 * The schemas of a rule's action and match, built with `options` for each object: the strict
 * rule's refuse a field they do not know (`Strict`, `StrictFaultRuleSchema` below).
 */
export const faultActionSchema = (options: TObjectOptions = {}) =>
  Type.Union([
    Type.Object(
      {
        type: Type.Literal('status'),
        status: Type.Integer({ minimum: FAULT_RANGES.status[0], maximum: FAULT_RANGES.status[1] }),
        retryAfter: Type.Optional(
          Type.Integer({ minimum: FAULT_RANGES.retryAfter[0], maximum: FAULT_RANGES.retryAfter[1] }),
        ),
        // A header value (a line break or an emoji made every answer a 500).
        rejectedReason: Type.Optional(HeaderValue({ minLength: 1, maxLength: 200 })),
        body: Type.Optional(Type.Unknown()),
      },
      options,
    ),
    Type.Object({ type: Type.Literal('timeout') }, options),
    Type.Object({ type: Type.Literal('drop') }, options),
    Type.Object(
      {
        type: Type.Literal('latency'),
        ms: Type.Integer({ minimum: FAULT_RANGES.latencyMs[0], maximum: FAULT_RANGES.latencyMs[1] }),
      },
      options,
    ),
    Type.Object({ type: Type.Literal('malformed') }, options),
  ]);

export const FaultActionSchema = faultActionSchema();

export const faultMatchSchema = (options: TObjectOptions = {}) =>
  Type.Object(
    {
      method: Type.Optional(Type.String({ minLength: 1, maxLength: 10 })),
      path: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
      reason: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    },
    options,
  );

export const FaultRuleInputSchema = Type.Object({
  target: Target,
  match: Type.Optional(faultMatchSchema()),
  action: FaultActionSchema,
  times: Type.Optional(Type.Integer({ minimum: FAULT_RANGES.times[0], maximum: FAULT_RANGES.times[1] })),
  probability: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  seed: Type.Optional(Type.Integer({ minimum: FAULT_RANGES.seed[0], maximum: FAULT_RANGES.seed[1] })),
  label: Type.Optional(Type.String({ maxLength: 200 })),
});

/**
 * A rule with no field it does not know, down to its match and action: a misspelt `tims` left a
 * one-shot fault on for good, a `reasn` a rule that matched every request (outsider, review). What
 * `faults.add`, a scenario's `fault` step and a fleet take; a bundle's list of live rules, which a
 * run does not use, stays as old exports wrote it.
 */
export const StrictFaultRuleSchema = Type.Object(
  {
    ...FaultRuleInputSchema.properties,
    match: Type.Optional(faultMatchSchema(Strict)),
    action: faultActionSchema(Strict),
  },
  Strict,
);

const sameRules: SameFields<Static<typeof FaultRuleInputSchema>, FaultRuleInput> = true;
const sameActions: SameFields<Static<typeof FaultActionSchema>, FaultAction> = true;
const sameMatches: SameFields<Static<ReturnType<typeof faultMatchSchema>>, FaultMatch> = true;
void [sameRules, sameActions, sameMatches];

const Filter = {
  target: Type.Optional(TrafficTargetSchema),
  reason: Type.Optional(Type.String()),
  status: Type.Optional(Type.String({ pattern: TRAFFIC_STATUS_FILTER_PATTERN })),
  // No NUL: SQLite's LIKE reads the pattern up to it, so `%00` matched every entry.
  text: Type.Optional(Type.String({ maxLength: 500, pattern: '^[^\\u0000]*$' })),
  requestId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
};
export const TrafficFilterSchema = Type.Object(Filter);
/** Entries `GET /admin/api/traffic` returns without a `limit`: a whole scripted scenario's worth. */
export const TRAFFIC_LIST_DEFAULT_LIMIT = 1_000;
/**
 * One answer of `GET /traffic` holds at most this much JSON (docs/contract/console.md §9): 5,000
 * large entries read and written at once held every listener. Fewer entries come back, oldest
 * first, and the caller reads on with `since` from the last one, as for any page.
 */
export const TRAFFIC_LIST_MAX_BYTES = 8 * 1024 * 1024;
/**
 * `since` on `GET /admin/api/traffic` reads either way a script may mean it: an entry id (the
 * entries after it) or an engine time in epoch ms, as `GET /clock` gives it (the entries at or
 * after it). Ids never come near 10^12; engine times, which start at the wall time, are past it.
 */
export const TRAFFIC_SINCE_ENGINE_TIME = 1e12;

/**
 * The player requests "Trigger now" sends. Spelled out: a union mapped from `TRIGGER_REQUESTS`
 * has no static type (the renderer saw `never`); the check below keeps the two in step.
 */
export const TriggerRequestSchema = Type.Union([
  Type.Literal('refresh'),
  Type.Literal('nextWindow'),
  Type.Literal('versionPoll'),
  Type.Literal('context'),
  Type.Literal('skipNext'),
  Type.Literal('skipPrev'),
  Type.Literal('pause'),
  Type.Literal('play'),
]);
const sameRequests: Same<Static<typeof TriggerRequestSchema>, TriggerRequest> = true;
void sameRequests;

export interface FaultPreset {
  id: string;
  label: string;
  /** What the player does when the rule fails its request, as the platform says (each preset has a test that it does). */
  description: string;
  /** The rule the preset adds (its target can be switched to `player`). */
  rule: Omit<FaultRule, 'id' | 'hits' | 'passes' | 'spent' | 'createdAt'>;
}

export const faultCommands = {
  'faults.list': command<FaultRuleView[]>()({
    summary:
      'Every fault rule with its live hit count, in matching order (the first matching rule wins), each with `shadowedBy` (the earlier rule that takes every request it matches, so it never fires), `shadow` (`full`, `delayed`, `partial`) and a `warning` in words.',
    input: Empty,
    http: { method: 'GET', path: '/faults' },
  }),
  'faults.move': command<FaultRuleView[]>()({
    summary:
      'Moves a rule to `toIndex` in the matching order (0: first; past the end: last), kept across restarts; answers the rules in their new order.',
    input: Type.Object({
      id: Type.String({ minLength: 1 }),
      toIndex: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
    }),
    http: { method: 'POST', path: '/faults/:id/move' },
  }),
  'faults.trigger': command<TriggerResult>()({
    summary:
      'Sends now the request a rule waits for: picked from its match (a version poll, a refresh, a skip…), sent by `playerId` or by the first player playing a queue, as the player would send it.',
    input: Type.Object({ id: Type.String({ minLength: 1 }), playerId: Type.Optional(Type.String({ minLength: 1 })) }),
    http: { method: 'POST', path: '/faults/:id/trigger' },
  }),
  'faults.add': command<FaultRule>()({
    summary:
      'Adds a fault rule for login, control, cloudQueue (the console\u2019s servers) or player (the player\u2019s client).',
    input: StrictFaultRuleSchema,
    http: { method: 'POST', path: '/faults' },
  }),
  'faults.remove': command<{ removed: true }>()({
    summary: 'Removes one fault rule.',
    input: Id,
    http: { method: 'DELETE', path: '/faults/:id' },
  }),
  'faults.clear': command<{ removed: number }>()({
    summary: 'Removes every fault rule.',
    input: Empty,
    http: { method: 'DELETE', path: '/faults' },
  }),
  'faults.presets': command<FaultPreset[]>()({
    summary: 'One-click rules for the seed\u2019s failure cases.',
    input: Empty,
    http: { method: 'GET', path: '/faults/presets' },
  }),
  'faults.applyPreset': command<FaultRule>()({
    summary: 'Adds the rule of a preset, optionally for another target.',
    input: Type.Object({ id: Type.String({ minLength: 1 }), target: Type.Optional(Target) }),
    http: { method: 'POST', path: '/faults/presets/:id' },
  }),
  'traffic.list': command<TrafficEntry[]>()({
    summary: `Traffic entries from \`since\` on (an entry id: the entries after it; ${TRAFFIC_SINCE_ENGINE_TIME} or more: an engine time, the entries at or after it), oldest first, secrets masked, each with the player transitions its answer caused; ${TRAFFIC_LIST_DEFAULT_LIMIT} unless \`limit\` says otherwise, and no more than ${TRAFFIC_LIST_MAX_BYTES / (1024 * 1024)} MB of JSON in one answer (read on with \`since\` from its last id).`,
    input: Type.Object({
      ...Filter,
      since: Type.Optional(Whole),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5_000 })),
    }),
    http: { method: 'GET', path: '/traffic' },
    largeAnswer: true,
  }),
  'traffic.page': command<{ total: number; rows: TrafficSummary[] }>()({
    summary: 'One page of the filtered traffic log (what the virtualized list reads).',
    input: Type.Object({
      filter: Type.Optional(TrafficFilterSchema),
      offset: Whole,
      limit: Type.Integer({ minimum: 1, maximum: 1_000 }),
    }),
  }),
  'traffic.locate': command<{ index: number | null }>()({
    summary: 'Where an entry stands in the filtered log, 0-based (null: the filter leaves it out, or it was dropped).',
    input: Type.Object({ filter: Type.Optional(TrafficFilterSchema), id: Type.Integer({ minimum: 1 }) }),
  }),
  'traffic.get': command<TrafficEntry>()({
    summary: 'One entry with headers and bodies, and the player transitions it caused; `reveal` unmasks secrets.',
    input: Type.Object({ id: Type.Integer({ minimum: 1 }), reveal: Type.Optional(Type.Boolean()) }),
    http: { method: 'GET', path: '/traffic/:id' },
  }),
  'traffic.clear': command<{ cleared: true }>()({
    summary: 'Empties the traffic log.',
    input: Empty,
    http: { method: 'DELETE', path: '/traffic' },
  }),
  'traffic.settings': command<TrafficSettings>()({
    summary: 'Retention cap (entries), byte budget (`retentionBytes`) and capture switch of the traffic log.',
    input: Empty,
    http: { method: 'GET', path: '/traffic/settings' },
  }),
  'traffic.configure': command<TrafficSettings>()({
    summary:
      'Changes the retention cap in entries or the byte budget (the oldest entries dropped beyond either), or turns capture off and on.',
    input: Type.Object({
      retention: Type.Optional(Type.Integer({ minimum: 100, maximum: 10_000_000 })),
      retentionBytes: Type.Optional(
        Type.Integer({ minimum: TRAFFIC_RETENTION_BYTES_MIN, maximum: TRAFFIC_RETENTION_BYTES_MAX }),
      ),
      capture: Type.Optional(Type.Boolean()),
    }),
    http: { method: 'PATCH', path: '/traffic/settings' },
  }),
  'traffic.har': command<HarLog>()({
    summary: 'The filtered traffic as a HAR 1.2 log (secrets masked unless `reveal`).',
    input: Type.Object({
      filter: Type.Optional(TrafficFilterSchema),
      reveal: Type.Optional(Type.Boolean()),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: TRAFFIC_EXPORT_MAX })),
    }),
    http: { method: 'POST', path: '/traffic/har' },
    largeAnswer: true,
  }),
};
