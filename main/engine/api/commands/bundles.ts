/**
 * Commands of repro bundles: export what this console saw (HAR, fault rules, queues, clock and a
 * scenario derived from the traffic) and import it into another console. The import takes the
 * bundle file itself as its body and checks it against `ReproBundleSchema` before it writes
 * anything.
 */
import Type from 'typebox';
import { BUNDLE_FORMAT, BUNDLE_VERSIONS_READ, type BundleImportResult, type ReproBundle } from '../bundle-types.js';
import { command, WHOLE_QUEUE_BODY_LIMIT } from '../command.js';
import { Strict } from './shared.js';
import { MAX_CLOCK_SPEED } from './core.js';
import { TRAFFIC_EXPORT_MAX } from '../traffic-types.js';
import { FaultRuleInputSchema, TrafficFilterSchema } from './faults.js';
import { ContainerInput, PlaybackPoliciesInput, ReportsInput, TrackInput } from './queues.js';
import { ScenarioFieldsSchema } from './scenarios.js';

export const BUNDLE_QUEUE_REF_PATTERN = '^[A-Za-z][A-Za-z0-9_]{0,39}$';

const BundleQueueSchema = Type.Object({
  ref: Type.String({ pattern: BUNDLE_QUEUE_REF_PATTERN }),
  sourceId: Type.String({ minLength: 1, maxLength: 256 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  container: ContainerInput,
  playbackPolicies: PlaybackPoliciesInput,
  reports: ReportsInput,
  items: Type.Array(
    Type.Object({
      id: Type.String({ minLength: 1, maxLength: 256 }),
      track: TrackInput,
      policies: Type.Optional(PlaybackPoliciesInput),
    }),
    { maxItems: 2_000_000 },
  ),
});

/**
 * What `bundles.import` accepts: the file `bundles.export` writes. No field it does not know, here
 * or in its clock and scenario: a hand edit's `"fault": […]` or `"speeed"` would be dropped without
 * a word and the run would pass without what the editor meant it to check.
 */
export const ReproBundleSchema = Type.Object(
  {
    format: Type.Literal(BUNDLE_FORMAT),
    // Every version this console reads: an older bundle is upgraded as it is imported (bundles/upgrade-v1.ts).
    version: Type.Union(BUNDLE_VERSIONS_READ.map((v) => Type.Literal(v))),
    exportedAt: Type.Optional(Type.String({ maxLength: 100 })),
    source: Type.Optional(Type.Unknown()),
    filter: Type.Optional(TrafficFilterSchema),
    clock: Type.Object(
      {
        now: Type.Optional(Type.Number()),
        speed: Type.Number({ minimum: 0, maximum: MAX_CLOCK_SPEED }),
      },
      Strict,
    ),
    faults: Type.Array(FaultRuleInputSchema, { maxItems: 1_000 }),
    queues: Type.Array(BundleQueueSchema, { maxItems: 100 }),
    scenario: ScenarioFieldsSchema,
    notes: Type.Optional(Type.Array(Type.String({ maxLength: 2_000 }), { maxItems: 1_000 })),
    // Carried for people and HAR tools; an import does not replay it.
    har: Type.Optional(Type.Unknown()),
  },
  Strict,
);

export const bundleCommands = {
  'bundles.export': command<ReproBundle>()({
    summary:
      'A repro bundle of the filtered traffic: HAR, fault rules, the queues it used, clock, and a scenario that replays it.',
    input: Type.Object({
      filter: Type.Optional(TrafficFilterSchema),
      queueIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 100 })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: TRAFFIC_EXPORT_MAX })),
      reveal: Type.Optional(Type.Boolean()),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    }),
    http: { method: 'POST', path: '/bundles/export' },
    largeAnswer: true,
  }),
  'bundles.import': command<BundleImportResult>()({
    summary:
      'Imports a repro bundle: creates its queues anew, adds its fault rules, applies its clock speed and saves its scenario. All or nothing.',
    // Checked against ReproBundleSchema by the handler, which explains a wrong file better.
    input: Type.Unknown(),
    http: { method: 'POST', path: '/bundles/import' },
    bodyLimit: WHOLE_QUEUE_BODY_LIMIT,
  }),
};
