/**
 * Checks control API bodies against TypeBox schemas and answers in the contract's terms: a
 * missing required field is ERROR_MISSING_PARAMETERS, a field of the wrong shape
 * ERROR_INVALID_PARAMETER, each naming the field.
 */
import type { Static, TSchema } from 'typebox';
import type { Validator } from 'typebox/compile';
import { compileSchema } from '../api/lazy-typebox.js';
import { PlaybackError } from '../player/errors.js';

export interface BodyChecker<S extends TSchema> {
  (body: unknown): Promise<Static<S>>;
}

/** Compiled on its first call, not when the routes are built: start-up needs none of them. */
export function bodyChecker<S extends TSchema>(schema: S): BodyChecker<S> {
  let validator: Validator | undefined;
  return async (raw) => {
    validator ??= await compileSchema(schema);
    const body = raw ?? {};
    if (validator.Check(body)) return body as Static<S>;
    const errors = validator.Errors(body);
    const missing = errors.find((e) => e.keyword === 'required');
    if (missing) {
      const names = (missing.params as { requiredProperties?: string[] }).requiredProperties ?? [];
      throw new PlaybackError('ERROR_MISSING_PARAMETERS', `missing ${names.join(', ') || 'a required parameter'}`);
    }
    const first = errors[0];
    throw new PlaybackError(
      'ERROR_INVALID_PARAMETER',
      first ? `${first.instancePath.slice(1) || 'body'}: ${first.message}` : 'invalid body',
    );
  };
}
