import type { ScenarioStepResult } from '../scenario-types.js';

/** Events of scenario runs. */
export interface ScenarioEvents {
  /**
   * A step of a running scenario has an outcome, at engine time `at`. A step that waits for
   * engine time is sent again once it settles (`settled: true`), with its final status.
   */
  'scenarios.step': { scenarioId: string; at: number; stepCount: number; step: ScenarioStepResult; settled: boolean };
}
