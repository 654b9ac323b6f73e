/**
 * A `queueEdit` step's `input` is the input of the command it names, and is checked against that
 * command's schema as the scenario is saved or imported: refused then (400, `run` exit 2), not
 * failed at its step as if the console had done wrong (outsider: `queues.items.add` without
 * `items` ran, and failed the run with exit 1). A value a step fills from a variable
 * (`"${own.id}"`) is judged once filled, when the step runs.
 */
import { commandSpecs } from './commands.js';
import { explainAll } from './explain.js';
import type { ScenarioStep } from './scenario-types.js';

/** The most problems said of one step's input. */
const MAX_PROBLEMS = 5;

/** "3/input/items must have …" for each queueEdit input its command would refuse (the step's index first). */
export function queueEditProblems(steps: readonly ScenarioStep[]): string[] {
  const problems: string[] = [];
  steps.forEach((step, index) => {
    if (step.type !== 'queueEdit') return;
    for (const problem of explainAll(commandSpecs[step.command].input, step.input, '', MAX_PROBLEMS)) {
      if (fromVariable(valueAt(step.input, problem.path))) continue;
      problems.push(`${index}/input${problem.path === '/' ? '' : problem.path} ${problem.message}`);
    }
  });
  return problems;
}

const fromVariable = (value: unknown): boolean => typeof value === 'string' && value.includes('${');

/** The value at a JSON pointer (`/items/0/track`), or undefined. */
function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const key of pointer.split('/').slice(1)) {
    if (key === '') continue;
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return value;
}
