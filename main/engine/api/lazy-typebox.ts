/**
 * TypeBox's compiler and value modules, loaded on the first input checked or converted instead of
 * at start: the ready line needs neither. Imported from the package (the Electron main process,
 * tests) they are hundreds of modules and about 12 MB of RSS; in the CLI's bundle, a chunk that
 * stays on disk, and no schema compiled before the first call (docs/decisions/perf-start.md).
 * The command table's schemas are still built at start, from the type builders alone.
 */
import type { TSchema } from 'typebox';
import type { Compile, Validator } from 'typebox/compile';
import type Value from 'typebox/value';

let compile: typeof Compile | undefined;
let compileLoading: Promise<typeof Compile> | undefined;
let valueLoading: Promise<typeof Value> | undefined;

/** Loads the compiler once; later calls resolve at once. */
export function loadCompiler(): Promise<typeof Compile> {
  compileLoading ??= import('typebox/compile').then((module) => (compile = module.Compile));
  return compileLoading;
}

/**
 * A schema's validator, for code that runs only after `loadCompiler` resolved (a synchronous
 * walk such as explain.ts's): throws rather than check nothing if it did not.
 */
export function compileLoaded(schema: TSchema): Validator {
  if (!compile) throw new Error('the TypeBox compiler is not loaded yet: await loadCompiler() first');
  return compile(schema) as unknown as Validator;
}

/**
 * A schema's validator: at once when the compiler is loaded, so that a call keeps its place
 * among others made after it; else once it is.
 */
export function compileSchema(schema: TSchema): Validator | Promise<Validator> {
  return compile ? compileLoaded(schema) : loadCompiler().then(() => compileLoaded(schema));
}

/** `Value` (Convert, Check, …), loaded once on first use. */
export function loadValue(): Promise<typeof Value> {
  valueLoading ??= import('typebox/value').then((module) => module.default);
  return valueLoading;
}
