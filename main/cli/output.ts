/** What `run` and `check` share of their output: report files and a quiet engine log. */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { messageOf } from '../engine/api/errors.js';
import type { Logger } from '../engine/log.js';
import type { CliIo } from './io.js';
import { UsageError } from './usage.js';

/**
 * A report path that cannot be written is a bad command line, found before anything runs. Found
 * without touching what is there: a run stopped by Ctrl-C must not have emptied the report an
 * earlier run wrote at that path (audit), and a refused command leaves no empty file behind.
 */
export function claimOutput(path: string): void {
  try {
    const existed = existsSync(path);
    closeSync(openSync(path, 'a'));
    if (!existed) rmSync(path);
    // The report is written beside it and renamed over it (writeReport): the folder must take a file.
    accessSync(dirname(resolve(path)), constants.W_OK);
  } catch (error) {
    throw new UsageError(`cannot write the report to ${path}: ${messageOf(error)}`);
  }
}

/**
 * Claims every report path of one command (by flag, e.g. `--json`), and refuses one file named by
 * two flags (the second report would be renamed over the first without a word, one report where
 * the user asked for two) or a report over the file the command reads (`run b.json --json b.json`
 * would replace the bundle with its report). A relative and an absolute path, or a link to the same
 * folder, name the same file.
 */
export function claimOutputs(paths: Readonly<Record<string, string | undefined>>, reads: readonly string[] = []): void {
  const byFile = new Map<string, string>();
  for (const path of reads) byFile.set(fileOf(path), 'the file this command reads');
  for (const [flag, path] of Object.entries(paths)) {
    if (!path) continue;
    claimOutput(path);
    const file = fileOf(path);
    const other = byFile.get(file);
    if (other) throw new UsageError(`--${flag} ${path} is ${other}: give each report a file of its own`);
    byFile.set(file, `the file --${flag} names`);
  }
}

/**
 * One name for a file however the path reaches it: a file that is there by its device and inode
 * (a link to it, a hard link, another case on a case-blind disk), one that is not yet by its folder
 * with that folder's links resolved.
 */
function fileOf(path: string): string {
  if (existsSync(path)) {
    const { dev, ino } = statSync(path);
    return `${dev}:${ino}`;
  }
  return join(realpathSync(dirname(resolve(path))), basename(path));
}

/** Writes the whole report or nothing: beside the path, then renamed over it, so a kill midway leaves the old one. */
export function writeReport(path: string, text: string, io: CliIo): void {
  const beside = join(dirname(resolve(path)), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(beside, text);
    renameSync(beside, path);
  } catch (error) {
    rmSync(beside, { force: true });
    throw error;
  }
  io.stderr(`wrote ${path}\n`);
}

/** The engine's start-up chatter is not the command's output; warnings and errors still show. */
export function quietLogger(log: Logger): Logger {
  return { info: () => undefined, warn: log.warn, error: log.error };
}
