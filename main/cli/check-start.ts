/**
 * The engine's refusal to start a `check` run, in the command line's words: a BASE_URL or an
 * Authorization it will not take, or a report that names cases or a base URL no run can have, is
 * a bad command line or report (exit 2), not a check that failed (exit 1, with the engine's
 * `conformance.runs.start: /baseUrl …`, outsider).
 */
import { EngineError } from '../engine/api/errors.js';
import { UsageError } from './usage.js';

/** `baseUrl`: what the command line calls the base URL (`BASE_URL`, "the report's baseUrl"). */
export function startRefused(error: unknown, baseUrl: string): unknown {
  if (!(error instanceof EngineError) || error.code !== 'invalid_input') return error;
  return new UsageError(
    error.message
      .replace(/^conformance\.runs\.start: /, '')
      .replace(/^\/?baseUrl\b/, baseUrl)
      .replace(/^\/authorization\b/, '--authorization')
      .replace(/give (credentials|it again) as "authorization"/, 'give $1 with --authorization'),
  );
}
