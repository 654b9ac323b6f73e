/**
 * A part of the engine that is loaded and built on its first command, not at start: the fleet
 * and the conformance suite bring their own packages (the fleet's sketches, the JUnit builder)
 * and a good share of the CLI's code, and the ready line needs none of it
 * (docs/decisions/perf-start.md). Its module is a dynamic import, so the CLI build keeps it in
 * a chunk of its own.
 */
import type { CommandName } from './commands.js';
import type { CommandHandler, CommandHandlers } from './runner.js';

export interface LazyPart<H extends CommandName> {
  /** Handlers that load the part on their first call and then hand every call to it. */
  readonly handlers: Pick<CommandHandlers, H>;
  /** Closes the part if it was ever built; nothing to do otherwise. */
  close(): Promise<void>;
}

export function lazyPart<P extends { close(): unknown }, H extends CommandName>(
  names: readonly H[],
  build: () => Promise<{ part: P; handlers: Pick<CommandHandlers, H> }>,
): LazyPart<H> {
  let built: Promise<{ part: P; handlers: Pick<CommandHandlers, H> }> | null = null;
  const load = () => (built ??= build());
  const handlers = {} as Record<H, CommandHandler<H>>;
  for (const name of names)
    handlers[name] = async (input) => ((await load()).handlers[name] as CommandHandler<H>)(input);
  return {
    handlers: handlers as unknown as Pick<CommandHandlers, H>,
    close: async () => {
      if (built) await (await built).part.close();
    },
  };
}
