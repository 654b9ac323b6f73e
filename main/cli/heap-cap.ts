/**
 * `check` runs under a heap cap of its own (docs/contract/console.md §8: the check process stays
 * under 300 MB whatever the server sends). What a run keeps is bounded (`conformance/retained.ts`,
 * `heard.ts`, `play-answers.ts`: about 100 MB live at most, measured on a 20,000-item queue of
 * windows just under the 1 MB cap), but V8 sizes its heap by how fast a program allocates, not by
 * what it keeps: reading those windows grew it past 370 MB of heap and 470 MB of RSS. With the
 * old generation capped at CHECK_HEAP_MB the same run peaked at 270 MB and took 10% longer.
 *
 * Node takes the cap only at start, so a `check` started without one runs itself again in a
 * child with it, passing on its standard streams, its signals and its exit code. A cap the user
 * gave (on the command line or in NODE_OPTIONS) is theirs and is kept.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

export const CHECK_HEAP_MB = 160;
const CAP_FLAG = '--max-old-space-size';
/** Set in the child: it runs the command itself. */
const CAPPED_ENV = 'CQC_HEAP_CAPPED';

/** The Node options a capped run needs, or null when this process runs the command itself. */
export function heapCapArgs(
  argv: readonly string[],
  execArgv: readonly string[],
  env: NodeJS.ProcessEnv,
): string[] | null {
  if (argv[0] !== 'check' || env[CAPPED_ENV]) return null;
  if (execArgv.some((arg) => arg.startsWith(CAP_FLAG)) || (env.NODE_OPTIONS ?? '').includes(CAP_FLAG)) return null;
  return [...execArgv, `${CAP_FLAG}=${CHECK_HEAP_MB}`];
}

/** Runs the command again in a capped child and resolves to its exit code; null when none is needed. */
export async function runHeapCapped(argv: readonly string[]): Promise<number | null> {
  const options = heapCapArgs(argv, process.execArgv, process.env);
  if (!options) return null;
  // The IPC channel tells the child when this process is gone, however it went (watchParent).
  const child = spawn(process.execPath, [...options, process.argv[1]!, ...argv], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [CAPPED_ENV]: '1' },
  });
  // Ctrl-C reaches the child from the terminal too; a kill of this process alone is passed on.
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, forward);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? 128 + (signal ? constants.signals[signal] : 0)));
  });
}

/**
 * In the capped child: stops the check as SIGTERM does (its reports' paths left as they were) when
 * the process that started it is gone. Killed with SIGKILL, that process passes on no signal, and
 * the child went on asking the server and then wrote its reports over the earlier ones (audit).
 */
export function watchParent(): void {
  if (!process.env[CAPPED_ENV] || !process.channel) return;
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  // The channel alone keeps the child alive no longer than its own work.
  process.channel.unref();
}
