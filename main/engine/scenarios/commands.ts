/** Command handlers of saved scenarios. */
import { randomBytes } from 'node:crypto';
import { EngineError } from '../api/errors.js';
import type { CommandHandlers } from '../api/runner.js';
import type { EngineClock } from '../clock/clock.js';
import type { ScenarioRepository } from '../store/repositories/scenarios.js';
import { runScenario, type ScenarioDeps } from './runner.js';
import {
  SERVICE_VARIABLES,
  describeUnfilled,
  describeUnknownRefs,
  unfilledVariables,
  unknownRuleRefs,
  repeatedRuleRefs,
  misplacedAtOnce,
  describeRepeatedRefs,
} from '../api/scenario-variables.js';
import { uncheckedScenario, unknownNames } from '../api/scenario-checks.js';
import { TRANSITIONS } from '../player/transitions.js';
import { queueEditProblems } from '../api/queue-edit-inputs.js';

/** The names an `expect` step's transitions may take: the rows of the player's table. */
const TRANSITION_IDS: ReadonlySet<string> = new Set(TRANSITIONS.map((row) => row.id));

type Names = 'scenarios.list' | 'scenarios.save' | 'scenarios.get' | 'scenarios.delete' | 'scenarios.run';

export function scenarioCommandHandlers(
  repo: ScenarioRepository,
  clock: EngineClock,
  deps: ScenarioDeps,
): Pick<CommandHandlers, Names> {
  const find = (id: string) => {
    const scenario = repo.get(id);
    if (!scenario) throw new EngineError('not_found', `no scenario ${id}`);
    return scenario;
  };
  /** One run at a time: two scenarios moving the same clock would not test anything. */
  let running: Promise<unknown> = Promise.resolve();
  return {
    'scenarios.list': () => repo.list(),
    'scenarios.save': ({ id, name, description, steps }) => {
      const refs = unknownRuleRefs(steps);
      if (refs.length)
        throw new EngineError(
          'invalid_input',
          `${describeUnknownRefs(refs, '/steps')}, which no fault step before it names with "ref"`,
        );
      const repeated = repeatedRuleRefs(steps);
      if (repeated.length) throw new EngineError('invalid_input', describeRepeatedRefs(repeated, '/steps'));
      const misplaced = [...misplacedAtOnce(steps), ...queueEditProblems(steps)];
      if (misplaced.length) throw new EngineError('invalid_input', misplaced.map((why) => `/steps/${why}`).join(', '));
      const unfilled = unfilledVariables(steps);
      if (unfilled.length)
        throw new EngineError(
          'invalid_input',
          `${describeUnfilled(unfilled, '/steps')}, which no step before it saves and no service is named: save it from an earlier command's answer (save), or use one of ${SERVICE_VARIABLES.map((name) => `\${${name}}`).join(', ')}`,
        );
      const existing = id ? repo.get(id) : undefined;
      const scenario = {
        id: id ?? `scenario-${randomBytes(4).toString('hex')}`,
        name,
        steps,
        createdAt: existing?.createdAt ?? clock.now(),
        ...(description === undefined ? {} : { description }),
      };
      repo.save(scenario);
      return find(scenario.id);
    },
    'scenarios.get': ({ id }) => find(id),
    'scenarios.delete': ({ id }) => {
      if (!repo.remove(id)) throw new EngineError('not_found', `no scenario ${id}`);
      return { removed: true };
    },
    'scenarios.run': async ({ id }) => {
      const scenario = find(id);
      // Refused, never run to a PASS that says nothing (the CLI's `run` refuses the same file).
      const unchecked = uncheckedScenario(scenario.steps);
      if (unchecked) throw new EngineError('invalid_input', `scenario ${scenario.name}: ${unchecked.message}`);
      // Nor to a FAIL the file made: a name nothing can match.
      const players = deps.commands && ((await deps.commands('players.list', {})) as { id: string }[]);
      const unknown = unknownNames(scenario.steps, TRANSITION_IDS, players ? new Set(players.map((p) => p.id)) : null);
      if (unknown) throw new EngineError('invalid_input', `scenario ${scenario.name} ${unknown}`);
      const run = running.then(() => runScenario(scenario, deps));
      running = run.catch(() => undefined);
      return run.then((report) => {
        repo.saveReport(id, report);
        return report;
      });
    },
  };
}
