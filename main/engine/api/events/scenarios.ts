import type { ScenarioStepResult } from '../scenario-types.js';

/** Events of scenario runs. */
export interface ScenarioEvents {
  /**
   * A step of a running scenario has an outcome, at engine time `at`. A step that waits for
   * engine time is sent again once it settles (`settled: true`), with its final status.
   * `startedAt` is the run's start, as its report says it: a step's time is `at - startedAt`.
   */
  'scenarios.step': {
    scenarioId: string;
    at: number;
    startedAt: number;
    stepCount: number;
    step: ScenarioStepResult;
    settled: boolean;
  };
}
