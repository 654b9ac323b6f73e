/** Runs the suite on an engine and waits for the run to end: the tests' one way in. */
import type { ConformanceProgress, ConformanceRun } from '../../api/conformance-types.js';
import type { Engine } from '../../index.js';

export async function checkServer(
  engine: Engine,
  baseUrl: string,
  authorization?: string,
  timeoutMs?: number,
): Promise<{ run: ConformanceRun; progress: ConformanceProgress[] }> {
  const progress: ConformanceProgress[] = [];
  let ended: (() => void) | null = null;
  const end = new Promise<void>((resolve) => (ended = resolve));
  let runId: string | null = null;
  const stop = engine.events.on('conformance.progress', (event) => {
    progress.push(event);
    if (event.settled === null && event.runId === runId) ended!();
  });
  try {
    ({ id: runId } = await engine.commands.run('conformance.runs.start', {
      baseUrl,
      ...(authorization === undefined ? {} : { authorization }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    }));
    if ((await engine.commands.run('conformance.runs.get', { id: runId })).status === 'running') await end;
    return {
      run: await engine.commands.run('conformance.runs.get', { id: runId }),
      progress: progress.filter((event) => event.runId === runId),
    };
  } finally {
    stop();
  }
}

/** `id: outcome` of each case, for a readable expectation. */
export function outcomes(run: ConformanceRun): Record<string, string> {
  return Object.fromEntries(run.cases.map((result) => [result.id, result.outcome]));
}
