/**
 * Fastify's schema compilers, loaded on the first route that has a schema. Left to itself, every
 * fastify instance requires Ajv (with its formats) and fast-json-stringify as it is built: 40 ms
 * and a few MB on the way to the ready line (docs/decisions/perf-start.md), for compilers none of
 * the console's routes use (their inputs are checked by the command table's own schemas). A route
 * with a schema still gets fastify's own compilers, with the options fastify passes them, with one
 * difference: fastify takes builders given to it as custom ones, and does not lower-case the
 * names of a `headers` schema for them (nor run its checks of those names): such a schema must
 * name its headers in lower case, as Node gives them.
 *
 * They are required from where fastify is installed: they are its dependencies, not ours.
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Builder = (...args: unknown[]) => unknown;

/** One app's compiler builders: each loads fastify's own the first time it is called. */
export function lazyCompilers(): CompilersFactory {
  let validator: Builder | undefined;
  let serializer: Builder | undefined;
  return {
    buildValidator: ((...args: unknown[]) => (validator ??= selector('@fastify/ajv-compiler'))(...args)) as never,
    buildSerializer: ((...args: unknown[]) =>
      (serializer ??= selector('@fastify/fast-json-stringify-compiler'))(...args)) as never,
  };
}

function selector(name: string): Builder {
  const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
  return (fastifyRequire(name) as () => Builder)();
}
