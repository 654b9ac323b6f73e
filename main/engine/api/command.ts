/**
 * How one command of the engine is declared: its input schema (validated at every edge), its
 * output type, and optionally the REST route of the admin API (docs/contract/console.md §7) that serves it.
 * The IPC bridge and the admin API are two adapters over the same table; neither adds commands.
 */
import type { Static, TSchema } from 'typebox';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface HttpRoute {
  method: HttpMethod;
  /** Path under `/admin/api`, with `:name` parameters that become input fields. */
  path: string;
  /** Status of a successful answer. Default 200. */
  status?: number;
}

/** Commands that take whole queues in one body: 100,000 sample items are about 30 MB of JSON. */
export const WHOLE_QUEUE_BODY_LIMIT = 256 * 1024 * 1024;

export interface CommandSpec<Input extends TSchema = TSchema, Output = unknown> {
  summary: string;
  input: Input;
  http?: HttpRoute;
  /**
   * Largest request body the admin API reads for this command, in bytes. Default: 1 MiB for a
   * command whose input has fields a body can carry, and next to nothing for one that has none
   * (see `admin/body-limits.ts`). Set it only for commands that take whole queues or bundles.
   */
  bodyLimit?: number;
  /**
   * Its answer may run to megabytes (a page of the traffic log, an export, a whole queue): the
   * admin API makes a few such answers at once and lets the others wait (`admin/large-answers.ts`).
   */
  largeAnswer?: true;
  /** Phantom field: carries the output type, never set at run time. */
  readonly output?: Output;
}

/** `command<Output>()({ summary, input, http })`: the output type is named, the input inferred. */
export function command<Output>() {
  return <Input extends TSchema>(spec: Omit<CommandSpec<Input, Output>, 'output'>): CommandSpec<Input, Output> => spec;
}

export type InputOf<S> = S extends CommandSpec<infer I, unknown> ? Static<I> : never;
export type OutputOf<S> = S extends CommandSpec<TSchema, infer O> ? O : never;
