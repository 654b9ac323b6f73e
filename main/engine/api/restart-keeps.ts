/**
 * What a restart on a data dir keeps, and what lives in memory only, in the words the status bar
 * says it (renderer/src/layout/DataPlace.tsx, docs/persistence.md). One table for both sides, and
 * `restart-keeps.test.ts` holds the engine to each line: it makes what the line names, restarts on
 * the same folder and looks for it, so the words cannot drift from what the store does. Pure data,
 * shared with the renderer.
 */

export interface RestartClaim {
  /** The test's handle on the line. */
  id: string;
  /** How the status bar says it, inside a sentence. */
  words: string;
}

/** Found again by a console started on the same data dir. */
export const RESTART_KEEPS = [
  { id: 'households', words: 'households and players, where they were' },
  { id: 'queues', words: 'queues and their reports' },
  { id: 'integrations', words: 'integrations, grants, tokens, event subscriptions and OAuth flows' },
  { id: 'faults', words: 'fault rules' },
  { id: 'scenarios', words: 'scenarios' },
  { id: 'checks', words: 'check runs' },
  { id: 'settings', words: 'settings' },
  { id: 'traffic', words: 'the traffic log' },
] as const satisfies readonly RestartClaim[];

/** Gone at a restart: held in memory only. */
export const RESTART_LOSES = [
  { id: 'fleets', words: 'fleets' },
  { id: 'deliveries', words: 'event delivery tries' },
  { id: 'checkAuthorization', words: 'an Authorization typed for a check' },
] as const satisfies readonly RestartClaim[];

export type RestartClaimId = (typeof RESTART_KEEPS)[number]['id'] | (typeof RESTART_LOSES)[number]['id'];
