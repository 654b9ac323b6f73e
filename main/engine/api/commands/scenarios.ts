/** Commands of saved scenarios: save, list, run (CI runs them over the admin API). */
import Type, { type Static } from 'typebox';
import { MAX_ITEMS_IN_BUNDLE_QUEUE } from '../bundle-types.js';
import { command } from '../command.js';
import {
  MAX_AFTER_ANSWERS,
  MAX_SCENARIO_STEPS,
  type QueueEditCommand,
  type Scenario,
  type ScenarioReport,
  type ScenarioStep,
} from '../scenario-types.js';
import { StrictFaultRuleSchema, TriggerRequestSchema } from './faults.js';
import { PlayerActionSchema } from './player.js';
import { Empty, Id, Strict, type Same, type SameFields } from './shared.js';
import type { PlaybackState } from '../types.js';
import type { PlayerMachineState } from '../player-types.js';
import { MAX_CLOCK_SPEED, MAX_CLOCK_STEP_MS } from './core.js';

/**
 * The player's own states and the control API's. Spelled out: a union mapped from a list has no
 * static type (a step's state read as `undefined`); the check below keeps it in step with the types.
 */
const StateSchema = Type.Union([
  Type.Literal('IDLE'),
  Type.Literal('BUFFERING'),
  Type.Literal('PLAYING'),
  Type.Literal('PAUSED'),
  Type.Literal('SUSPENDED'),
  Type.Literal('PLAYBACK_STATE_IDLE'),
  Type.Literal('PLAYBACK_STATE_BUFFERING'),
  Type.Literal('PLAYBACK_STATE_PLAYING'),
  Type.Literal('PLAYBACK_STATE_PAUSED'),
]);
type StepState = PlayerMachineState | PlaybackState;
const sameStates: Same<Static<typeof StateSchema>, StepState> = true;
void sameStates;

/** A rule's name within one scenario, given by its `fault` step (`rule1`). */
const RuleRef = Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]{0,39}$' });
const QueueEditCommandSchema = Type.Union([
  Type.Literal('queues.create'),
  Type.Literal('queues.update'),
  Type.Literal('queues.items.add'),
  Type.Literal('queues.items.generate'),
  Type.Literal('queues.items.update'),
  Type.Literal('queues.items.delete'),
  Type.Literal('queues.items.remove'),
  Type.Literal('queues.items.move'),
]);
const sameEdits: Same<Static<typeof QueueEditCommandSchema>, QueueEditCommand> = true;
void sameEdits;

/** Why a step's outcome is not checked (a bundle's, where it cannot cause it). */
const NotChecked = Type.String({ minLength: 1, maxLength: 300 });

/**
 * A step of one type, with no field it does not know: a misspelled `itemID` or a `times` outside
 * its rule would otherwise be dropped without a word, and the check it meant with it (a false
 * PASS). A rule's own fields are its schema's to judge.
 */
const Step = <Properties extends Parameters<typeof Type.Object>[0]>(properties: Properties) =>
  Type.Object(properties, Strict);

/** Per player, the requests it had begun since the scenario's first call (`requestsBefore`). */
const RequestsBefore = Type.Record(Type.String({ minLength: 1, maxLength: 200 }), Type.Integer({ minimum: 0 }), {
  maxProperties: 1_000,
});

/** A step a journaled call makes: it may say what the players had asked before it (`requestsBefore`). */
const CallStep = <Properties extends Parameters<typeof Type.Object>[0]>(properties: Properties) =>
  Step({ ...properties, requestsBefore: Type.Optional(RequestsBefore), requestsBy: Type.Optional(RequestsBefore) });

/** A call made before the one before it was answered, and how many answers came first (`CallOrder`). */
const Order = {
  overlapsPrevious: Type.Optional(Type.Boolean()),
  afterAnswers: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_AFTER_ANSWERS })),
};
/** A call still waiting at the export, or one whose outcome a bundle cannot cause (`CallOutcome`). */
const Outcome = { pendingAtExport: Type.Optional(Type.Boolean()), outcomeNotChecked: Type.Optional(NotChecked) };
/** A call at a player that may be refused: `expectError` says it must be. */
const Refusable = { expectError: Type.Optional(Type.Boolean()), ...Outcome };

export const ScenarioStepSchema = Type.Union([
  CallStep({ type: Type.Literal('fault'), rule: StrictFaultRuleSchema, ref: Type.Optional(RuleRef) }),
  CallStep({ type: Type.Literal('faultRemove'), rule: RuleRef }),
  CallStep({
    type: Type.Literal('faultMove'),
    rule: RuleRef,
    toIndex: Type.Integer({ minimum: 0, maximum: 10_000 }),
  }),
  CallStep({
    type: Type.Literal('faultTrigger'),
    rule: RuleRef,
    playerId: Type.Optional(Type.String({ minLength: 1 })),
    ...Refusable,
    ...Order,
  }),
  CallStep({
    type: Type.Literal('trigger'),
    playerId: Type.String({ minLength: 1 }),
    request: TriggerRequestSchema,
    ...Refusable,
    ...Order,
  }),
  CallStep({
    type: Type.Literal('queueEdit'),
    command: QueueEditCommandSchema,
    input: Type.Record(Type.String(), Type.Unknown()),
    // As many as a bundle carries of a queue: a queue edit that made them replays (10,000 did not).
    saveItemIds: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: MAX_ITEMS_IN_BUNDLE_QUEUE }),
    ),
    saveQueue: Type.Optional(Type.String({ pattern: '^[\\w-]{1,100}$' })),
    ...Order,
  }),
  CallStep({ type: Type.Literal('clearFaults') }),
  CallStep({
    type: Type.Literal('action'),
    playerId: Type.String({ minLength: 1 }),
    action: PlayerActionSchema,
    ...Refusable,
    ...Order,
  }),
  CallStep({
    type: Type.Literal('command'),
    method: Type.Union([Type.Literal('GET'), Type.Literal('POST')]),
    path: Type.String({ pattern: '^/api/v1/' }),
    body: Type.Optional(Type.Unknown()),
    expectStatus: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
    save: Type.Optional(Type.Record(Type.String(), Type.String())),
    ...Outcome,
    ...Order,
  }),
  Step({
    type: Type.Literal('clock'),
    speed: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_CLOCK_SPEED })),
    advanceMs: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_CLOCK_STEP_MS })),
  }),
  Step({
    type: Type.Literal('expect'),
    playerId: Type.String({ minLength: 1 }),
    state: Type.Optional(StateSchema),
    itemId: Type.Optional(Type.String()),
    // At least one: an empty list would check nothing and pass whatever happened.
    transitions: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
    requests: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
  }),
]);

/** The schema a saved scenario is checked by and the type the engine runs it as, kept as one. */
const sameSteps: SameFields<Static<typeof ScenarioStepSchema>, ScenarioStep> = true;
void sameSteps;

/**
 * A scenario's own fields, as a file, `POST /scenarios` and a bundle's `scenario` give them. Nothing
 * else: a `"faults"` or `"clock"` beside `steps` (a bundle's, put in a scenario file) would be
 * dropped without a word, and the run would pass without the rules or clock it was meant to have.
 */
export const ScenarioFieldsSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 2_000 })),
    steps: Type.Array(ScenarioStepSchema, { minItems: 1, maxItems: MAX_SCENARIO_STEPS }),
  },
  Strict,
);

export type StoredScenarioView = Scenario & { lastReport: ScenarioReport | null };

export const scenarioCommands = {
  'scenarios.list': command<StoredScenarioView[]>()({
    summary: 'Saved scenarios with the report of their last run.',
    input: Empty,
    http: { method: 'GET', path: '/scenarios' },
  }),
  'scenarios.save': command<StoredScenarioView>()({
    summary: 'Saves a scenario (a new one, or an existing one by id).',
    input: Type.Object(
      { id: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,80}$' })), ...ScenarioFieldsSchema.properties },
      Strict,
    ),
    http: { method: 'POST', path: '/scenarios' },
  }),
  'scenarios.get': command<StoredScenarioView>()({
    summary: 'One saved scenario.',
    input: Id,
    http: { method: 'GET', path: '/scenarios/:id' },
  }),
  'scenarios.delete': command<{ removed: true }>()({
    summary: 'Deletes a saved scenario.',
    input: Id,
    http: { method: 'DELETE', path: '/scenarios/:id' },
  }),
  'scenarios.run': command<ScenarioReport>()({
    summary: 'Runs a saved scenario on the live engine and reports pass or fail, step by step.',
    input: Id,
    http: { method: 'POST', path: '/scenarios/:id/run' },
  }),
};
