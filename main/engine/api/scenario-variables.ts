/**
 * `${name}` in a scenario's steps (docs/scenarios-and-bundles.md, "Steps"): a service URL
 * (`${cloudQueue}`) or a value a step before it saved (a command's `save`, a queue edit's
 * `saveItemIds`), filled where the runner fills them: a command's path and body, a queue edit's
 * input. A name nothing before it gives could never be filled, and the run would fail at that
 * step whatever the console did: such a file cannot run, and is refused before it starts, as a
 * scenario (`scenarios.save`) and as a repro bundle (`bundles.import`).
 */
import { isCallStep, type ScenarioStep } from './scenario-types.js';
import type { ServiceUrls } from './types.js';

export const VARIABLE = /\$\{([\w.-]+)\}/g;
/** What a file's author wrote as a variable, whatever its name: one `VARIABLE` cannot fill is never filled. */
const WRITTEN_AS_VARIABLE = /\$\{([^}\s"]*)\}/g;

/** What a `queueEdit` step's `saveQueue` keeps of the queue it made: `${name.id}`, and so on. */
export const SAVED_QUEUE_FIELDS = ['id', 'queueBaseUrl', 'httpAuthorization'] as const;

/** The service URLs every run knows, by the names `ServiceUrls` gives them. */
export const SERVICE_VARIABLES: readonly (keyof ServiceUrls)[] = ['console', 'login', 'control', 'cloudQueue'];

export interface UnfilledVariable {
  /** The step that uses it, from 0. */
  index: number;
  name: string;
}

/**
 * The variables each step uses that neither `known` nor a step before it gives, in step order.
 * `known` is asked, not listed: a bundle's 100,000 items are 100,000 names, and building them as
 * strings and a set held every listener 110-250 ms at its import.
 */
export function unfilledVariables(
  steps: readonly ScenarioStep[],
  known: (name: string) => boolean = () => false,
): UnfilledVariable[] {
  const given = new Set<string>(SERVICE_VARIABLES);
  const unfilled: UnfilledVariable[] = [];
  steps.forEach((step, index) => {
    const filled =
      step.type === 'command'
        ? JSON.stringify([step.path, step.body ?? null])
        : step.type === 'queueEdit'
          ? JSON.stringify(step.input ?? null)
          : step.type === 'expect'
            ? (step.itemId ?? '')
            : '';
    const names = new Set<string>();
    // Any `${…}`, not only the names the runner fills: `${token:queue-x}` went out as it was written,
    // and failed at run time (audit).
    for (const [, name] of filled.matchAll(WRITTEN_AS_VARIABLE))
      if (!given.has(name!) && !known(name!)) names.add(name!);
    for (const name of names) unfilled.push({ index, name });
    if (step.type === 'command') for (const name of Object.keys(step.save ?? {})) given.add(name);
    if (step.type === 'queueEdit') {
      for (const name of step.saveItemIds ?? []) given.add(name);
      if (step.saveQueue) for (const field of SAVED_QUEUE_FIELDS) given.add(`${step.saveQueue}.${field}`);
    }
  });
  return unfilled;
}

/** "/steps/3 uses ${session}" (`at`: where the steps are, as a JSON pointer), once a variable, for a refusal. */
export function describeUnfilled(unfilled: readonly UnfilledVariable[], at: string): string {
  const first = new Map<string, number>();
  for (const { index, name } of unfilled) if (!first.has(name)) first.set(name, index);
  return [...first].map(([name, index]) => `${at}/${index} uses \${${name}}`).join(', ');
}

/**
 * The rules a step names by `ref` (`faultRemove`, `faultMove`, `faultTrigger`) that no `fault`
 * step before it gave that ref: the step could only fail at run time ("no rule rule9").
 */
export function unknownRuleRefs(steps: readonly ScenarioStep[]): UnfilledVariable[] {
  const refs = new Set<string>();
  const unknown: UnfilledVariable[] = [];
  steps.forEach((step, index) => {
    if (step.type === 'fault' && step.ref) refs.add(step.ref);
    if (
      (step.type === 'faultRemove' || step.type === 'faultMove' || step.type === 'faultTrigger') &&
      !refs.has(step.rule)
    )
      unknown.push({ index, name: step.rule });
  });
  return unknown;
}

/**
 * Fault steps whose `ref` names a rule still live: which of the two a later `faultRemove` of it
 * meant, no one can say (audit X8: such a file ran and passed). A ref whose rule a `faultRemove`
 * or a `clearFaults` took away may name a new one (review).
 */
export function repeatedRuleRefs(steps: readonly ScenarioStep[]): UnfilledVariable[] {
  const live = new Set<string>();
  const repeated: UnfilledVariable[] = [];
  steps.forEach((step, index) => {
    if (step.type === 'faultRemove') live.delete(step.rule);
    if (step.type === 'clearFaults') live.clear();
    if (step.type !== 'fault' || !step.ref) return;
    if (live.has(step.ref)) repeated.push({ index, name: step.ref });
    live.add(step.ref);
  });
  return repeated;
}

/** The refusal of repeated refs, each at its step. */
export function describeRepeatedRefs(repeated: readonly UnfilledVariable[], at: string): string {
  return `${repeated.map(({ index, name }) => `${at}/${index} gives ref ${name} again`).join(', ')}, while the rule it named is live: a ref names one rule at a time`;
}

/**
 * Steps whose `overlapsPrevious` follows no call step (the first step, a clock or an expect step
 * before it), or whose `afterAnswers` comes without it: a run would make them as any other step,
 * and the file would not say what it meant.
 */
export function misplacedAtOnce(steps: readonly ScenarioStep[]): string[] {
  const misplaced: string[] = [];
  steps.forEach((step, index) => {
    if (!isCallStep(step)) return;
    if (step.overlapsPrevious && !isCallStep(steps[index - 1]))
      misplaced.push(
        `${index} has overlapsPrevious with no command, action, trigger, faultTrigger or queueEdit step right before it`,
      );
    if (step.afterAnswers !== undefined && !step.overlapsPrevious)
      misplaced.push(`${index} has afterAnswers without overlapsPrevious`);
  });
  return misplaced;
}

/** "/steps/3 names rule9" for each unknown ref, for a refusal. */
export function describeUnknownRefs(unknown: readonly UnfilledVariable[], at: string): string {
  return unknown.map(({ index, name }) => `${at}/${index} names rule ${name}`).join(', ');
}
