/** What `run` and `check` share of their output: report files and a quiet engine log. */
import { writeFileSync } from 'node:fs';
import { messageOf } from '../engine/api/errors.js';
import type { Logger } from '../engine/log.js';
import type { CliIo } from './io.js';
import { UsageError } from './usage.js';

/** A report path that cannot be written is a bad command line, found before anything runs. */
export function claimOutput(path: string): void {
  try {
    writeFileSync(path, '');
  } catch (error) {
    throw new UsageError(`cannot write the report to ${path}: ${messageOf(error)}`);
  }
}

export function writeReport(path: string, text: string, io: CliIo): void {
  writeFileSync(path, text);
  io.stderr(`wrote ${path}\n`);
}

/** The engine's start-up chatter is not the command's output; warnings and errors still show. */
export function quietLogger(log: Logger): Logger {
  return { info: () => undefined, warn: log.warn, error: log.error };
}
