/**
 * Reads a JSON file the command line was given (`run FILE`, `check --replay REPORT.json`, `fleet
 * --fault FILE`) within bounds, or says what is wrong with it (exit 2). Anyone may have written
 * the file, and CI runs it unattended: it is sized before it is read, scanned for what
 * `JSON.parse` would build before it is parsed (parsing is one synchronous call that no deadline
 * can stop, and its heap grows with the values, not the bytes: 250 MB of `1,` took 3.6 GB), and a
 * syntax error is told by line and column, which V8's own message does not always give.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { printParseErrorCode, visit } from 'jsonc-parser';
import { NOT_TEXT_SAID, notText, type NotText } from '../engine/api/binary-text.js';
import { messageOf } from '../engine/api/errors.js';
import { WHOLE_QUEUE_BODY_LIMIT } from '../engine/api/command.js';
import { jsonBeyond, MAX_JSON_CONTAINERS, MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../engine/http/json-depth.js';
import { fileErrorSaid } from './file-error.js';
import { plain } from './steps.js';
import { UsageError } from './usage.js';

/** The largest bundle the console itself would import: its queues travel in one admin call. */
export const MAX_JSON_FILE_BYTES = WHOLE_QUEUE_BODY_LIMIT;

/** Says what the file is in messages: `${what} ${path}`, e.g. "the report r.json"; empty for the path alone. */
export interface JsonFileOptions {
  what?: string;
  maxBytes?: number;
  /** How long a pipe or a device may take (STREAM_READ_MS unless told: tests). */
  streamReadMs?: number;
}

export function readJsonFile(path: string, options: JsonFileOptions = {}): unknown {
  const name = options.what ? `${options.what} ${path}` : path;
  const maxBytes = options.maxBytes ?? MAX_JSON_FILE_BYTES;
  let text: string;
  try {
    text = readWithin(path, name, maxBytes, options.streamReadMs ?? STREAM_READ_MS);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${name}: ${fileErrorSaid(error)}`);
  }
  // A byte order mark (as some Windows editors save UTF-8) is no part of the JSON.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const beyond = jsonBeyond(text, MAX_JSON_DEPTH, MAX_JSON_CONTAINERS, MAX_JSON_VALUES);
  // A binary file's bytes read as brackets too: what it is says more than how deep it "nests".
  const kind = beyond === 'deep' ? notText(text) : null;
  if (kind) throw notJson(name, kind);
  if (beyond === 'deep')
    throw new UsageError(`${name} nests arrays and objects more than ${MAX_JSON_DEPTH} deep: no file of ours does`);
  if (beyond === 'many')
    throw new UsageError(
      `${name} holds more than ${MAX_JSON_CONTAINERS.toLocaleString('en-US')} JSON objects and arrays or ${MAX_JSON_VALUES.toLocaleString('en-US')} values: the largest bundle a console exports holds a few million`,
    );
  try {
    return JSON.parse(text);
  } catch (error) {
    // Its "line" would be a run of control characters and U+FFFD: say what it is instead.
    const kind = notText(text);
    if (kind) throw notJson(name, kind);
    throw new UsageError(`${name} is not JSON: ${syntaxErrorAt(text) ?? plain(messageOf(error))}`);
  }
}

const notJson = (name: string, kind: NotText) => new UsageError(`${name} is not JSON: ${NOT_TEXT_SAID[kind]}`);

/** How long a pipe or a device may take to give all it has (a pipe from `curl`, `<(…)`). */
export const STREAM_READ_MS = 30_000;
/** How long to wait between two reads of a pipe that has nothing yet. */
const STREAM_POLL_MS = 20;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * The file's text, never more than `maxBytes` of it. A regular file is sized before it is read: a
 * file of gigabytes is refused, not loaded. A pipe, a FIFO or a device has no size (`/dev/zero`
 * read to its end grew to 12 GB, `<(yes '[')` to 4 GB; audit): it is read up to the cap and
 * refused past it, and without blocking, so that a FIFO no one writes to, or a writer that
 * stops, ends within `streamReadMs` instead of hanging the command.
 */
function readWithin(path: string, name: string, maxBytes: number, streamReadMs: number): string {
  const tooBig = (size: string) =>
    new UsageError(
      `${name} is ${size} bytes; the command takes files of up to ${maxBytes.toLocaleString('en-US')} bytes`,
    );
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (stat.isFile()) {
      if (stat.size > maxBytes) throw tooBig(stat.size.toLocaleString('en-US'));
      refuseUnlikeJson(fd, name);
      return readFileSync(fd, 'utf8');
    }
    if (stat.isDirectory()) throw new UsageError(`${name} is a directory, not a file`);
    const namedFifo = stat.isFIFO() && !/^\/(dev\/fd\/|dev\/stdin$|proc\/self\/fd\/)/.test(path);
    const chunks: Buffer[] = [];
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const endAt = Date.now() + streamReadMs;
    let total = 0;
    let lastAt = Date.now();
    for (;;) {
      const read = readNow(fd, chunk);
      // A named FIFO read before its writer opened it reads as ended: only after the first byte is
      // it so. A shell's pipe (`<(…)`, /dev/fd/N, /dev/stdin) had its writer when opened: empty is empty.
      if (read === 0 && !(namedFifo && total === 0)) break;
      if (read === null || read === 0) {
        // Nothing yet: wait a moment, within the time the whole read may take.
        if (Date.now() > endAt)
          throw new UsageError(
            total === 0
              ? `${name}: nothing came within ${streamReadMs / 1_000} s (a pipe no one writes to?)`
              : // Said as it was: bytes that kept coming slowly are no writer gone quiet (outsider).
                `${name} gave ${total.toLocaleString('en-US')} bytes in ${streamReadMs / 1_000} s without ending (the last of them ${((Date.now() - lastAt) / 1_000).toFixed(1)} s before)`,
          );
        Atomics.wait(pause, 0, 0, STREAM_POLL_MS);
        continue;
      }
      total += read;
      lastAt = Date.now();
      if (total > maxBytes) throw tooBig(`more than ${maxBytes.toLocaleString('en-US')}`);
      chunks.push(Buffer.from(chunk.subarray(0, read)));
      if (Date.now() > endAt)
        throw new UsageError(`${name} did not end within ${streamReadMs / 1_000} s (a pipe or a device?)`);
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Control characters no JSON text holds anywhere, raw (a string escapes them; tab, LF and CR are
 * blanks). Not `notText`'s wider test: DEL and the C1 controls may stand raw in a JSON string.
 */
function holdsNeverInJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return true;
  }
  return false;
}

/**
 * A file whose first 4 KiB look binary is refused from them, before the rest is read: 256 MiB of
 * NULs took 2.7 s and 600 MB to be called binary (audit).
 */
function refuseUnlikeJson(fd: number, name: string): void {
  const head = Buffer.allocUnsafe(4_096);
  // At position 0, so the read after this one still starts at the file's start.
  const read = readSync(fd, head, 0, head.length, 0);
  const text = head.subarray(0, read).toString('utf8');
  // A control character or two is a text's (notText): the parse says where they are.
  const kind = holdsNeverInJson(text) ? notText(text) : null;
  if (kind) throw notJson(name, kind);
}

/** Bytes read into `chunk` now, 0 at the end, null when a pipe has nothing yet (it would block). */
function readNow(fd: number, chunk: Buffer): number | null {
  try {
    return readSync(fd, chunk, 0, chunk.length, null);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return null;
    throw error;
  }
}

/** Where the first syntax error in `text` is and what it is, as an editor would say it. */
export function syntaxErrorAt(text: string): string | undefined {
  let found: string | undefined;
  visit(
    text,
    {
      onError: (code, offset, _length, line, column) => {
        if (found !== undefined) return;
        const what = ERROR_WORDS[printParseErrorCode(code)] ?? printParseErrorCode(code);
        found = `line ${line + 1}, column ${column + 1}: ${what}\n${pointAt(text, offset - column, column)}`;
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  return found;
}

/** The line with the error (70 characters of it at most, around the column) and a caret under the column. */
function pointAt(text: string, lineStart: number, column: number): string {
  const end = text.indexOf('\n', lineStart);
  const line = text.slice(lineStart, end === -1 ? undefined : end).replace(/\r$/, '');
  const from = Math.max(0, column - 50);
  const shown = plain(line.slice(from, from + 70).replace(/\t/g, ' '));
  return `  ${from > 0 ? '…' : ''}${shown}\n  ${from > 0 ? ' ' : ''}${' '.repeat(column - from)}^`;
}

const ERROR_WORDS: Record<string, string> = {
  InvalidSymbol: 'not a JSON value',
  InvalidNumberFormat: 'a number JSON does not allow',
  PropertyNameExpected: 'a property name in double quotes was expected (a trailing comma?)',
  ValueExpected: 'a value was expected (a trailing comma, or the file ends early?)',
  ColonExpected: 'a colon was expected',
  CommaExpected: 'a comma was expected',
  CloseBraceExpected: 'a closing } was expected',
  CloseBracketExpected: 'a closing ] was expected',
  EndOfFileExpected: 'the JSON ends here, but more text follows',
  InvalidCommentToken: 'JSON has no comments',
  UnexpectedEndOfComment: 'a comment that never ends',
  UnexpectedEndOfString: 'a string that never ends',
  UnexpectedEndOfNumber: 'a number that ends early',
  InvalidUnicode: 'a \\u escape that is not four hex digits',
  InvalidEscapeCharacter: 'an escape JSON does not have',
  InvalidCharacter: 'a control character inside a string',
};
