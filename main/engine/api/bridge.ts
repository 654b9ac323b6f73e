/**
 * The contract between the engine and any host transport. The preload script exposes exactly this
 * object to the renderer, the HTTP transport implements it over the admin API, and the renderer
 * never needs to know which one it holds.
 */
import type { CommandInput, CommandName, CommandOutput } from './commands.js';
import type { EngineErrorBody } from './errors.js';
import type { EngineEvent } from './events.js';

export type CommandResult<N extends CommandName> =
  { ok: true; value: CommandOutput<N> } | { ok: false; error: EngineErrorBody };

export interface EngineBridge {
  call<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandResult<N>>;
  /** Subscribes to every engine event; returns the unsubscribe function. */
  subscribe(listener: (event: EngineEvent) => void): () => void;
}

/** IPC channel names, shared by the preload script and the shell. */
export const IPC_COMMAND_CHANNEL = 'cqc:command';
export const IPC_EVENT_CHANNEL = 'cqc:event';

/** The meta tag through which the console server hands the admin token to a browser page. */
export const ADMIN_TOKEN_META = 'cqc-admin-token';
