/**
 * The engine's command table: every operation a host can ask of the engine. Each area declares
 * its rows in `commands/<area>.ts`; handlers live beside the code they drive.
 */
import type { InputOf, OutputOf } from './command.js';
import { coreCommands } from './commands/core.js';
import { householdCommandSpecs } from './commands/household.js';
import { oauthCommands } from './commands/oauth.js';
import { queueCommandSpecs } from './commands/queues.js';

export const commandSpecs = {
  ...coreCommands,
  ...oauthCommands,
  ...householdCommandSpecs,
  ...queueCommandSpecs,
};

export type CommandSpecs = typeof commandSpecs;
export type CommandName = keyof CommandSpecs;
export type CommandInput<N extends CommandName> = InputOf<CommandSpecs[N]>;
export type CommandOutput<N extends CommandName> = OutputOf<CommandSpecs[N]>;

export const commandNames = Object.keys(commandSpecs) as CommandName[];

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.hasOwn(commandSpecs, name);
}
