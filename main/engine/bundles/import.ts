/**
 * Imports a repro bundle, all or nothing: the whole file is checked first (its shape, and that
 * every variable its scenario uses names one of its queues and items), then the queues are
 * created anew, the fault rules added and the scenario saved, with the queues' URLs, tokens and
 * item ids rewritten to the new queues, in one transaction. Only then does the clock take the
 * bundle's speed. A bundle that fails any check changes nothing and says what is wrong.
 */
import { randomBytes } from 'node:crypto';
import type { Validator } from 'typebox/compile';
import type { Static } from 'typebox';
import { BUNDLE_FORMAT, BUNDLE_VERSION, BUNDLE_VERSIONS_READ, type BundleImportResult } from '../api/bundle-types.js';
import { ReproBundleSchema } from '../api/commands/bundles.js';
import { queueEditProblems } from '../api/queue-edit-inputs.js';
import { EngineError } from '../api/errors.js';
import { explainAll } from '../api/explain.js';
import { compileLoaded, loadCompiler } from '../api/lazy-typebox.js';
import type { FaultRule } from '../api/fault-types.js';
import type { QueueSummary } from '../api/queue-types.js';
import type { ScenarioStep } from '../api/scenario-types.js';
import type { BundleDeps } from './deps.js';
import { upgradeV1 } from './upgrade-v1.js';
import {
  VARIABLE,
  describeUnfilled,
  describeUnknownRefs,
  unfilledVariables,
  unknownRuleRefs,
  repeatedRuleRefs,
  misplacedAtOnce,
  describeRepeatedRefs,
} from '../api/scenario-variables.js';
import type { StagedQueue } from '../cloud-queue/staged-writes.js';

type Bundle = Static<typeof ReproBundleSchema>;

/** Imported queues outlive a day of engine time, so their saved scenario keeps working. */
export const IMPORTED_TOKEN_LIFETIME_SEC = 365 * 86_400;

const MAX_PROBLEMS = 20;
/** Problems a refusal's message names; the rest are counted (all of them are in its details). */
const SAID_PROBLEMS = 5;

let validator: Validator | null = null;

export async function importBundle(
  deps: Omit<BundleDeps, 'traffic' | 'journal'>,
  value: unknown,
): Promise<BundleImportResult> {
  await loadCompiler();
  const checked = checkBundle(value);
  const upgraded = checked.version === 1 ? upgradeV1(checked) : { steps: checked.scenario.steps, notes: [] };
  const bundle = { ...checked, scenario: { ...checked.scenario, steps: upgraded.steps } };
  const warnings = warningsOf(deps, bundle);
  const created: QueueSummary[] = [];
  const rules: FaultRule[] = [];
  let scenario: { id: string; name: string; steps: number };
  // The queues' items are written in steps first, unseen (a bundle of 100,000 items held every
  // listener for seconds in one transaction); the transaction below only shows them.
  const staged: StagedQueue[] = [];
  try {
    for (const queue of bundle.queues) {
      staged.push(
        await deps.queues.writes.stageCreate({
          name: queue.name,
          container: queue.container,
          playbackPolicies: queue.playbackPolicies,
          reports: queue.reports,
          items: queue.items.map(({ track, policies }) => (policies ? { track, policies } : { track })),
          accessTokenLifetimeSec: IMPORTED_TOKEN_LIFETIME_SEC,
        }),
      );
    }
  } catch (error) {
    await Promise.all(staged.map((queue) => queue.discard()));
    throw error;
  }
  try {
    // Only the variables the steps use: a name for each of 100,000 items held every listener
    // 60-240 ms in this transaction.
    const written = JSON.stringify(bundle.scenario.steps);
    const used = new Set([...written.matchAll(VARIABLE)].map(([, name]) => name!));
    scenario = deps.store.transaction(() => {
      const variables = new Map<string, string>();
      for (const [index, queue] of bundle.queues.entries()) {
        const summary = staged[index]!.publish();
        created.push(summary);
        const newIds = staged[index]!.itemIds;
        // `${cloudQueue}` stays a variable: the scenario keeps working if the port changes.
        variables.set(`${queue.ref}.url`, `\${cloudQueue}/queues/${summary.id}`);
        variables.set(`${queue.ref}.token`, summary.accessToken);
        variables.set(`${queue.ref}.id`, summary.id);
        const prefix = `${queue.ref}.`;
        const wanted = new Set(
          [...used].filter((name) => name.startsWith(prefix)).map((name) => name.slice(prefix.length)),
        );
        if (wanted.size > 0)
          queue.items.forEach((item, index) => {
            if (wanted.has(item.id)) variables.set(`${prefix}${item.id}`, newIds[index]!);
          });
      }
      const steps = JSON.parse(
        written.replace(VARIABLE, (whole, name: string) => variables.get(name) ?? whole),
      ) as ScenarioStep[];
      const saved = {
        id: `scenario-${randomBytes(4).toString('hex')}`,
        name: bundle.scenario.name,
        steps,
        createdAt: deps.clock.state().now,
        ...(bundle.scenario.description === undefined ? {} : { description: bundle.scenario.description }),
      };
      deps.store.scenarios.save(saved);
      for (const rule of bundle.faults) rules.push(deps.faults.add(rule));
      return { id: saved.id, name: saved.name, steps: steps.length };
    });
  } catch (error) {
    // The rows are rolled back; what lives beside them in memory must forget them too.
    for (const rule of rules) deps.faults.remove(rule.id);
    await Promise.all(staged.map((queue) => queue.discard()));
    throw error;
  }
  deps.clock.setSpeed(bundle.clock.speed);
  return {
    queues: created.map((summary, index) => ({
      ref: bundle.queues[index]!.ref,
      sourceId: bundle.queues[index]!.sourceId,
      id: summary.id,
      name: summary.name,
      itemCount: summary.itemCount,
      queueBaseUrl: summary.queueBaseUrl,
    })),
    faults: rules.map((rule) => ({
      id: rule.id,
      target: rule.target,
      action: rule.action.type,
      ...(rule.label === undefined ? {} : { label: rule.label }),
    })),
    scenario,
    clock: deps.clock.state(),
    warnings,
    notes: [...(bundle.notes ?? []), ...upgraded.notes],
  };
}

/**
 * The bundle, or an `invalid_input` error that lists what is wrong with it. The TypeBox compiler
 * must be loaded (`loadCompiler`, as `importBundle` does).
 */
export function checkBundle(value: unknown): Bundle {
  const refuse = (message: string, problems: string[] = [message]): never => {
    throw new EngineError('invalid_input', message, { problems });
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) refuse('a repro bundle is a JSON object');
  const { format, version } = value as Record<string, unknown>;
  if (format !== BUNDLE_FORMAT)
    refuse(`not a repro bundle: "format" is ${JSON.stringify(format) ?? 'missing'}, expected "${BUNDLE_FORMAT}"`);
  if (!(BUNDLE_VERSIONS_READ as readonly unknown[]).includes(version)) {
    refuse(
      `repro bundle version ${JSON.stringify(version) ?? '(missing)'} is not supported: this console reads versions ${BUNDLE_VERSIONS_READ.join(' and ')} (it writes ${BUNDLE_VERSION})`,
    );
  }
  validator ??= compileLoaded(ReproBundleSchema);
  const problems: string[] = [];
  if (!validator.Check(value)) {
    // Explained like a command's input: a clock step's own field is blamed, not each member of
    // the step union it is not ("must have required properties rule" came first).
    for (const problem of explainAll(ReproBundleSchema, value, '', MAX_PROBLEMS))
      problems.push(`${problem.path} ${problem.message}`);
    // Should explaining ever find nothing, the validator's own words: a refused bundle is never taken.
    if (problems.length === 0)
      for (const error of validator.Errors(value).slice(0, MAX_PROBLEMS))
        problems.push(`${error.instancePath || '/'} ${error.message}`);
  } else {
    problems.push(...meaningProblems(value as Bundle));
  }
  if (problems.length)
    refuse(
      // Each said (a few at most): "(and 4 more problems)" left the reader to guess them.
      `not a valid repro bundle: ${problems.slice(0, SAID_PROBLEMS).join('; ')}${problems.length > SAID_PROBLEMS ? `; and ${problems.length - SAID_PROBLEMS} more` : ''}`,
      problems,
    );
  return value as Bundle;
}

/** What an imported queue's ref names besides its items (the variables the import fills). */
const QUEUE_FIELDS = new Set(['url', 'token', 'id']);

/** What the schema cannot see: refs and item ids that repeat, variables that name nothing. */
function meaningProblems(bundle: Bundle): string[] {
  const problems: string[] = [];
  /** Each queue's ref and its item ids: `${ref}.url`, `.token`, `.id` and `${ref}.${itemId}` name something. */
  const itemIds = new Map<string, Set<string>>();
  bundle.queues.forEach((queue, index) => {
    if (itemIds.has(queue.ref)) problems.push(`/queues/${index}/ref ${queue.ref} is used by two queues`);
    const ids = new Set<string>();
    queue.items.forEach((item, itemIndex) => {
      if (ids.has(item.id))
        problems.push(`/queues/${index}/items/${itemIndex}/id ${item.id} appears twice in queue ${queue.ref}`);
      // `${ref}.url` would name the item and the queue both, and the import would fill in one of them.
      if (QUEUE_FIELDS.has(item.id))
        problems.push(
          `/queues/${index}/items/${itemIndex}/id ${item.id} is what \${${queue.ref}.${item.id}} names of the queue itself; give the item another id`,
        );
      ids.add(item.id);
    });
    const before = itemIds.get(queue.ref);
    if (before) for (const id of ids) before.add(id);
    else itemIds.set(queue.ref, ids);
  });
  const known = (name: string): boolean => {
    for (const [ref, ids] of itemIds) {
      if (!name.startsWith(`${ref}.`)) continue;
      const rest = name.slice(ref.length + 1);
      if (QUEUE_FIELDS.has(rest) || ids.has(rest)) return true;
    }
    return false;
  };
  const unknownRefs = unknownRuleRefs(bundle.scenario.steps);
  if (unknownRefs.length)
    problems.push(
      `${describeUnknownRefs(unknownRefs, '/scenario/steps')}, which no fault step before it names with "ref"`,
    );
  const repeated = repeatedRuleRefs(bundle.scenario.steps);
  if (repeated.length) problems.push(describeRepeatedRefs(repeated, '/scenario/steps'));
  problems.push(
    ...[...misplacedAtOnce(bundle.scenario.steps), ...queueEditProblems(bundle.scenario.steps)].map(
      (why) => `/scenario/steps/${why}`,
    ),
  );
  const unfilled = unfilledVariables(bundle.scenario.steps, known);
  if (unfilled.length)
    problems.push(
      `${describeUnfilled(unfilled, '/scenario/steps')}, which names no queue, item or value a step before it saves`,
    );
  return problems;
}

/** Players and groups the scenario names that this console does not have. */
function warningsOf(deps: Omit<BundleDeps, 'traffic' | 'journal'>, bundle: Bundle): string[] {
  const warnings: string[] = [];
  const players = new Set<string>();
  const groups = new Set<string>();
  for (const step of bundle.scenario.steps) {
    if (step.type === 'action' || step.type === 'expect' || step.type === 'trigger') players.add(step.playerId);
    if (step.type === 'faultTrigger' && step.playerId) players.add(step.playerId);
    if (step.type === 'command') {
      const group = /^\/api\/v1\/groups\/([^/]+)\//.exec(step.path)?.[1];
      if (group) groups.add(group);
    }
  }
  for (const id of players)
    if (!deps.store.players.get(id))
      warnings.push(`the scenario acts at player ${id}, which this console does not have`);
  for (const id of groups)
    if (!deps.store.groups.get(id))
      warnings.push(`the scenario sends commands to group ${id}, which this console does not have`);
  return warnings;
}
