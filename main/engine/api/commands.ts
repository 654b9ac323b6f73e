/**
 * The engine's command table: every operation a host can ask of the engine. Each area declares
 * its rows in `commands/<area>.ts`; handlers live beside the code they drive.
 */
import type { InputOf, OutputOf } from './command.js';
import { coreCommands } from './commands/core.js';
import { oauthCommands } from './commands/oauth.js';
import { householdCommandSpecs } from './commands/household.js';
import { queueCommandSpecs } from './commands/queues.js';
import { faultCommands } from './commands/faults.js';
import { playerCommands } from './commands/player.js';
import { scenarioCommands } from './commands/scenarios.js';
import { bundleCommands } from './commands/bundles.js';
import { conformanceCommands } from './commands/conformance.js';
import { eventCommands } from './commands/events.js';
import { fleetCommands } from './commands/fleets.js';

export const commandSpecs = {
  ...coreCommands,
  ...oauthCommands,
  ...householdCommandSpecs,
  ...queueCommandSpecs,
  ...playerCommands,
  ...faultCommands,
  ...scenarioCommands,
  ...bundleCommands,
  ...conformanceCommands,
  ...eventCommands,
  ...fleetCommands,
};

export type CommandSpecs = typeof commandSpecs;
export type CommandName = keyof CommandSpecs;
export type CommandInput<N extends CommandName> = InputOf<CommandSpecs[N]>;
export type CommandOutput<N extends CommandName> = OutputOf<CommandSpecs[N]>;

export const commandNames = Object.keys(commandSpecs) as CommandName[];

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.hasOwn(commandSpecs, name);
}
