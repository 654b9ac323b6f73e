/** What `run` and `check` share of their output: report files and a quiet engine log. */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Logger } from '../engine/log.js';
import { fileErrorSaid } from './file-error.js';
import type { CliIo } from './io.js';
import { UsageError } from './usage.js';

/**
 * A report path that cannot be written is a bad command line, found before anything runs. Found
 * without touching what is there: a run stopped by Ctrl-C must not have emptied the report an
 * earlier run wrote at that path (audit), and a refused command leaves no empty file behind. A
 * pipe or a device (`--json >(jq .)`, a FIFO, `/dev/stdout`) is opened now and written into as it
 * is: one renamed over would be replaced by a plain file (outsider: `/dev/full`, run as root), and
 * a FIFO nobody reads is refused at once, where opening it waited for a reader past `--timeout`;
 * one whose reader stops reading is given up after PIPE_STALL_MS.
 */
export function claimOutput(path: string): ReportTarget {
  try {
    const target = streamTarget(path);
    if (target) return target;
    // A link to a file not there yet: the report is made where it points and the link left as it
    // is (the probe below made an empty file there, then took the link away: outsider).
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() && !existsSync(path)) {
      const file = resolve(dirname(path), readlinkSync(path));
      accessSync(dirname(file), constants.W_OK);
      return { kind: 'file', file };
    }
    const existed = existsSync(path);
    closeSync(openSync(path, 'a'));
    if (!existed) rmSync(path);
    // The report is written beside the file and renamed over it: the folder must take a file. A link
    // is followed, so that the file it names gets the report and the link stays a link.
    const file = existed ? realpathSync(path) : resolve(path);
    accessSync(dirname(file), constants.W_OK);
    return { kind: 'file', file };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot write the report to ${path}: ${fileErrorSaid(error, true)}`);
  }
}

/**
 * Where one report goes: a file renamed into place whole, or a pipe or device opened at the claim
 * (`inherited`: one of the process's own descriptors, left open for what else it writes).
 */
export type ReportTarget =
  { kind: 'file'; file: string } | { kind: 'stream'; fd: number; inherited?: true; nonBlocking?: true };

/** `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`: a descriptor the process has. */
const OWN_DESCRIPTOR = /^\/dev\/(?:std(out|err)|fd\/(\d{1,6}))$|^\/proc\/self\/fd\/(\d{1,6})$/;

/** A pipe or a device at `path`, opened for writing; null for a regular file or none. */
function streamTarget(path: string): ReportTarget | null {
  // Written through the descriptor itself: a socket (what a spawning process often gives as
  // stdout) cannot be opened again by its path (ENXIO), and a file it names is written where the
  // shell's redirection put it.
  const own = OWN_DESCRIPTOR.exec(path);
  if (own) {
    const fd = own[1] === 'out' ? 1 : own[1] === 'err' ? 2 : Number(own[2] ?? own[3]);
    fstatSync(fd);
    return { kind: 'stream', fd, inherited: true };
  }
  if (!existsSync(path)) return null;
  const stat = statSync(path);
  if (stat.isFile()) return null;
  if (stat.isDirectory()) throw new UsageError(`cannot write the report to ${path}: it is a folder`);
  if (!stat.isFIFO()) return { kind: 'stream', fd: openSync(path, 'w') };
  // Opened without waiting first: with no reader, the open fails (ENXIO) instead of waiting for one.
  let probe: number;
  try {
    probe = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
    throw new UsageError(`cannot write the report to ${path}: it is a pipe nothing reads (start what reads it first)`);
  }
  // Kept as it was opened, without waiting: a reader that takes no more of the report is given up
  // after PIPE_STALL_MS, where a waiting write held the command for good (outsider).
  return { kind: 'stream', fd: probe, nonBlocking: true };
}

/** How long a pipe's reader may take nothing of a report before the report is given up. */
export const PIPE_STALL_MS = 30_000;

/**
 * The whole text into a pipe opened without waiting, as fast as its reader takes it; throws once
 * the reader has taken nothing for `stallMs`. The command's run is over when its reports are
 * written, so the wait between tries holds nothing else up.
 */
function writeIntoPipe(fd: number, text: string, stallMs: number): void {
  const bytes = Buffer.from(text, 'utf8');
  const nap = new Int32Array(new SharedArrayBuffer(4));
  let written = 0;
  let tookLast = performance.now();
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written, bytes.length - written);
      tookLast = performance.now();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      if (performance.now() - tookLast >= stallMs)
        throw new Error(
          `its reader took ${written.toLocaleString('en-US')} of ${bytes.length.toLocaleString('en-US')} bytes, ` +
            `then nothing for ${stallMs / 1000} s: the report is cut off there`,
          { cause: error },
        );
      Atomics.wait(nap, 0, 0, 5);
    }
  }
}

/** The report paths one command claimed, each written once its report is made. */
export interface ClaimedOutputs {
  /** Writes the whole report or nothing to a file (beside it, then renamed over it: a kill midway leaves the old one); into a pipe or device as it is. */
  write(path: string, text: string, io: CliIo): void;
}

/**
 * Claims every report path of one command (by flag, e.g. `--json`), and refuses one file named by
 * two flags (the second report would be renamed over the first without a word, one report where
 * the user asked for two) or a report over a file the command reads (`run b.json --json b.json`
 * would replace the bundle with its report, `fleet --fault f.json --json f.json` the rules). A
 * relative and an absolute path, or a link to the same folder, name the same file.
 */
export function claimOutputs(
  paths: Readonly<Record<string, string | undefined>>,
  reads: readonly string[] = [],
  stallMs = PIPE_STALL_MS,
): ClaimedOutputs {
  const byFile = new Map<string, string>();
  for (const path of reads) byFile.set(fileOf(path), 'the file this command reads');
  const targets = new Map<string, ReportTarget>();
  for (const [flag, path] of Object.entries(paths)) {
    if (!path) continue;
    targets.set(path, claimOutput(path));
    const file = fileOf(path);
    const other = byFile.get(file);
    if (other) throw new UsageError(`--${flag} ${path} is ${other}: give each report a file of its own`);
    byFile.set(file, `the file --${flag} names`);
  }
  return {
    write(path, text, io) {
      const target = targets.get(path) ?? claimOutput(path);
      if (target.kind === 'stream') {
        try {
          if (target.nonBlocking) writeIntoPipe(target.fd, text, stallMs);
          else writeFileSync(target.fd, text);
        } catch (error) {
          throw new Error(`cannot write the report to ${path}: ${fileErrorSaid(error, true)}`, { cause: error });
        } finally {
          if (!target.inherited) closeSync(target.fd);
          targets.delete(path);
        }
      } else writeWhole(target.file, text);
      io.stderr(`wrote ${path}\n`);
    },
  };
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

/** The whole text or nothing at `file`: written beside it, then renamed over it. */
function writeWhole(file: string, text: string): void {
  const beside = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(beside, text);
    renameSync(beside, file);
  } catch (error) {
    rmSync(beside, { force: true });
    throw error;
  }
}

/** The engine's start-up chatter is not the command's output; warnings and errors still show. */
export function quietLogger(log: Logger): Logger {
  return { info: () => undefined, warn: log.warn, error: log.error };
}
