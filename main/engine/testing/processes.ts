/** Process ids for tests of what a console that was killed leaves behind. */
import { spawnSync } from 'node:child_process';

/** The id of a process that has already exited: what a killed console's lock names. */
export function exitedPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  if (child.pid === undefined) throw new Error('could not start a process');
  return child.pid;
}
