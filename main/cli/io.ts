/**
 * Where a command writes: stdout for what a script reads (the ready line, a run's steps), stderr
 * for people watching (logs, progress). Passed in, so tests can read both without a process.
 */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};
