/**
 * Runs commands from the table: validates the input against the command's schema, calls its
 * handler, and turns every failure into an `EngineError` value. Transports call `call`, which
 * never throws; engine code and tests call `run`, which does.
 */
import type { Validator } from 'typebox/compile';
import type { CommandResult } from './bridge.js';
import { commandSpecs, isCommandName, type CommandInput, type CommandName, type CommandOutput } from './commands.js';
import { EngineError, toErrorBody } from './errors.js';
import { explainAll } from './explain.js';
import { compileSchema } from './lazy-typebox.js';

export type CommandHandler<N extends CommandName> = (
  input: CommandInput<N>,
) => CommandOutput<N> | Promise<CommandOutput<N>>;
export type CommandHandlers = { [N in CommandName]: CommandHandler<N> };

/** The most refused places an error lists: 100,000 bad queue items need not make a 100,000-line answer. */
const MAX_PROBLEMS = 100;

export interface CommandRunner {
  run<N extends CommandName>(name: N, input?: unknown): Promise<CommandOutput<N>>;
  call(name: unknown, input?: unknown): Promise<CommandResult<CommandName>>;
}

export function createCommandRunner(handlers: CommandHandlers): CommandRunner {
  // Compiled on a command's first call; the compiler itself loads on the first of all
  // (lazy-typebox.ts). Once it has, no call waits: each reaches its handler in the order made.
  const validators = new Map<CommandName, Validator>();
  const validatorOf = (name: CommandName): Validator | Promise<Validator> => {
    const known = validators.get(name);
    if (known) return known;
    const remember = (validator: Validator) => (validators.set(name, validator), validator);
    const compiled = compileSchema(commandSpecs[name].input);
    return compiled instanceof Promise ? compiled.then(remember) : remember(compiled);
  };

  async function run<N extends CommandName>(name: N, input: unknown = {}): Promise<CommandOutput<N>> {
    if (!isCommandName(name)) throw new EngineError('unknown_command', `no command named ${JSON.stringify(name)}`);
    const found = validatorOf(name);
    const validator = found instanceof Promise ? await found : found;
    if (!validator.Check(input)) {
      // Every refused place (a form marks them all), the first of them in the message; the
      // validator's own list should explaining ever find nothing; a bounded answer for a huge input.
      const explained = explainAll(commandSpecs[name].input, input, '', MAX_PROBLEMS);
      const problems = (
        explained.length
          ? explained
          : validator.Errors(input).map((e) => ({ path: e.instancePath || '/', message: e.message }))
      ).slice(0, MAX_PROBLEMS);
      const first = problems[0];
      throw new EngineError(
        'invalid_input',
        `${name}: ${first ? `${first.path} ${first.message}` : 'invalid input'}`,
        problems,
      );
    }
    const handler = handlers[name] as CommandHandler<N>;
    return handler(input as CommandInput<N>);
  }

  return {
    run,
    async call(name, input) {
      try {
        if (!isCommandName(name)) throw new EngineError('unknown_command', `no command named ${JSON.stringify(name)}`);
        return { ok: true, value: await run(name, input) };
      } catch (error) {
        return { ok: false, error: toErrorBody(error) };
      }
    },
  };
}
