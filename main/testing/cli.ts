/**
 * The command line in process, as a test drives it: the same `main` the bin runs, with stdout and
 * stderr captured instead of written, and the exit code it would end with.
 */
import { main } from '../cli/index.js';
import type { CliIo } from '../cli/io.js';

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(...argv: string[]): Promise<CliOutcome> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}
