/** Command handlers of the conformance suite. */
import type { CommandHandlers } from '../api/runner.js';
import type { ConformanceRuns } from './runs.js';

type Names =
  | 'conformance.cases'
  | 'conformance.runs.start'
  | 'conformance.runs.list'
  | 'conformance.runs.get'
  | 'conformance.runs.rerun'
  | 'conformance.runs.stop'
  | 'conformance.runs.delete'
  | 'conformance.runs.export';

export function conformanceCommandHandlers(runs: ConformanceRuns): Pick<CommandHandlers, Names> {
  return {
    'conformance.cases': () => runs.caseList(),
    'conformance.runs.start': ({ baseUrl, authorization, timeoutMs, maxBytes, cases, madeUp }) =>
      runs.start({
        baseUrl,
        ...(authorization === undefined ? {} : { authorization }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(maxBytes === undefined ? {} : { maxBytes }),
        ...(cases === undefined ? {} : { cases }),
        ...(madeUp === undefined ? {} : { madeUp }),
      }),
    'conformance.runs.list': () => runs.list(),
    'conformance.runs.get': ({ id }) => runs.get(id),
    'conformance.runs.rerun': ({ id, authorization }) => runs.rerun(id, authorization),
    'conformance.runs.stop': ({ id }) => runs.stop(id),
    'conformance.runs.delete': ({ id }) => runs.delete(id),
    'conformance.runs.export': ({ id, format }) => runs.export(id, format),
  };
}
