/**
 * The steps a repro bundle's journal adds to scenarios: a rule removed, moved or triggered by the
 * name its `fault` step gave it, a player's request sent now, a queue edited. Each does what the
 * command of the same name does at the console, so a replay takes the path the user took.
 */
import type { ScenarioStep } from '../api/scenario-types.js';
import type { FaultRegistry } from '../faults/registry.js';
import { SAVED_QUEUE_FIELDS } from '../api/scenario-variables.js';

type JournalStep = Extract<
  ScenarioStep,
  { type: 'faultRemove' | 'faultMove' | 'faultTrigger' | 'trigger' | 'queueEdit' }
>;

export interface JournalStepContext {
  faults: Pick<FaultRegistry, 'remove' | 'move'>;
  /** Runs a command of the table (a trigger, a queue edit), as the admin API would. */
  commands: ((name: string, input: unknown) => Promise<unknown>) | undefined;
  vars: Map<string, string>;
  /** A step's value with `${name}` filled. */
  fill(value: unknown): unknown;
  /** Awaits work, or hands it back to run on while later steps move a stopped clock. */
  settle(work: Promise<string>): Promise<string | { work: Promise<string> }>;
}

/** Where a rule's scenario name keeps its id: not a name a `${}` variable can spell. */
export const ruleVar = (ref: string): string => `rule:${ref}`;

export function isJournalStep(step: ScenarioStep): step is JournalStep {
  return (
    step.type === 'faultRemove' ||
    step.type === 'faultMove' ||
    step.type === 'faultTrigger' ||
    step.type === 'trigger' ||
    step.type === 'queueEdit'
  );
}

export async function runJournalStep(
  step: JournalStep,
  ctx: JournalStepContext,
): Promise<string | { work: Promise<string> }> {
  const ruleId = (ref: string): string => {
    const id = ctx.vars.get(ruleVar(ref));
    if (!id) throw new Error(`no rule ${ref}: a fault step before this one names it with "ref"`);
    return id;
  };
  const run = (name: string, input: unknown): Promise<unknown> => {
    if (!ctx.commands) throw new Error(`this console cannot run ${name} from a scenario`);
    return ctx.commands(name, input);
  };
  /** The work of a step that may be refused: refused as expected passes, and the other way round. */
  const expecting = (what: string, expectError: boolean | undefined, work: () => Promise<unknown>): Promise<string> =>
    work().then(
      () => {
        if (expectError) throw new Error(`${what} was expected to be refused`);
        return what;
      },
      (error: unknown) => {
        if (expectError) return `${what} refused as expected: ${(error as Error).message}`;
        throw new Error(`${what} failed: ${(error as Error).message}`);
      },
    );
  switch (step.type) {
    case 'faultRemove': {
      const id = ruleId(step.rule);
      if (!ctx.faults.remove(id)) throw new Error(`rule ${step.rule} (${id}) is gone already`);
      return `rule ${step.rule} removed`;
    }
    case 'faultMove': {
      const id = ruleId(step.rule);
      if (!ctx.faults.move(id, step.toIndex)) throw new Error(`rule ${step.rule} (${id}) is gone`);
      return `rule ${step.rule} moved to ${step.toIndex}`;
    }
    case 'faultTrigger': {
      const input = { id: ruleId(step.rule), ...(step.playerId ? { playerId: step.playerId } : {}) };
      return ctx.settle(
        expecting(`trigger of rule ${step.rule}`, step.expectError, () => run('faults.trigger', input)),
      );
    }
    case 'trigger':
      return ctx.settle(
        expecting(`${step.request} sent by ${step.playerId}`, step.expectError, () =>
          run('players.trigger', { id: step.playerId, request: step.request }),
        ),
      );
    case 'queueEdit': {
      const input = ctx.fill(step.input);
      const edit = async (): Promise<string> => {
        const answer = (await run(step.command, input)) as
          ({ itemIds?: string[] } & Partial<Record<(typeof SAVED_QUEUE_FIELDS)[number], string>>) | undefined;
        if (step.saveQueue)
          for (const field of SAVED_QUEUE_FIELDS) {
            const value = answer?.[field];
            if (typeof value !== 'string') throw new Error(`${step.command} answered no ${field} to save`);
            ctx.vars.set(`${step.saveQueue}.${field}`, value);
          }
        // A queue made answers its id, not its items': they are read from it, in their order.
        const made =
          answer?.itemIds ??
          (step.command === 'queues.create' && step.saveItemIds?.length && typeof answer?.id === 'string'
            ? ((await run('queues.get', { id: answer.id })) as { items: { id: string }[] }).items.map((item) => item.id)
            : []);
        (step.saveItemIds ?? []).forEach((name, index) => {
          const id = made[index];
          if (id === undefined)
            throw new Error(
              `${step.command} made ${made.length} items, the scenario names ${step.saveItemIds!.length}`,
            );
          ctx.vars.set(name, id);
        });
        if (step.command === 'queues.create') return `queues.create made ${answer?.id ?? 'a queue'}`;
        return `${step.command} on ${String((input as { id?: unknown }).id)}`;
      };
      return ctx.settle(edit());
    }
  }
}
