/**
 * A large JSON body is parsed in turns, the event loop free between them (docs/contract/console.md
 * §9: no admin call holds the other listeners more than 250 ms): one JSON.parse of the 30 MB that
 * 100,000 queue items make took 0.45–0.8 s here, during which no listener answered.
 *
 * First a scan, in slices, finds where each array element and object member of the outer levels
 * begins and ends (and refuses a body nested too deep); then runs of small elements and members
 * are parsed PIECE_CHARS at a time by fastify's own parser (prototype-poisoning checks and all),
 * and put together. Only what JSON.parse would accept is accepted: each piece is itself JSON, and
 * what lies between pieces is checked here.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MAX_JSON_CONTAINERS, MAX_JSON_DEPTH, MAX_JSON_VALUES, nestsDeeperThan } from '../http/json-depth.js';

/** A body up to this many characters is parsed at once: ~5–20 ms. */
export const BIG_BODY_CHARS = 1024 * 1024;
/** Text parsed by one JSON.parse: ~1–3 ms. */
const PIECE_CHARS = 64 * 1024;
/** Characters scanned per turn: ~2–5 ms. */
const SCAN_CHARS = 512 * 1024;
/** Work done before the loop is let go, in ms. */
const TURN_MS = 8;
/** Arrays and objects down to this depth (the body's own is 0) can be split into pieces. */
const SPLIT_DEPTH = 4;
/**
 * What no admin call needs, and what a turn could not get through: whitespace and strings are read
 * in one go wherever they stand (a piece is one JSON.parse, a string one search), and 127 MB of
 * spaces before `{}`, or one 127 MB string, held every listener 250–310 ms (audit); a 127 MB number
 * about as long (review). The longest
 * string the console writes is a traffic body cut at 64 KiB; a name is at most 200 characters.
 */
export const MAX_SPACE_RUN = 1024 * 1024;
export const MAX_WORD_CHARS = 1024 * 1024;
export const MAX_STRING_CHARS = 8 * 1024 * 1024;

type ParseJson = (text: string) => unknown;

/** Replaces the listener's JSON parser for the routes of `app` (an encapsulated plugin). */
export function useJsonInTurns(app: FastifyInstance): void {
  const defaultParser = app.getDefaultJsonParser('error', 'error');
  const parseWith =
    (request: FastifyRequest): ParseJson =>
    (text) => {
      let failure: unknown = null;
      let value: unknown;
      defaultParser(request, text, (error, parsed) => {
        failure = error;
        value = parsed;
      });
      if (failure) throw failure;
      return value;
    };
  app.removeContentTypeParser('application/json');
  // As a buffer: decoding 30 MB at once (what `parseAs: 'string'` does) alone took 50–125 ms.
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    async (request: FastifyRequest, body: string | Buffer) => {
      const bytes = body as Buffer;
      // JSON is UTF-8 (RFC 8259 §8.1): bytes that are not were stored as U+FFFD, a name changed
      // without a word (outsider). Checked at once: 256 MB of ASCII in 22 ms here.
      if (!isUtf8(bytes)) throw notUtf8();
      if (bytes.length <= BIG_BODY_CHARS) {
        const text = bytes.toString('utf8');
        // As the listener's own parser: an empty body is no body.
        if (text.trim() === '') return undefined;
        if (nestsDeeperThan(text)) throw tooDeep();
        return parseWith(request)(text);
      }
      // Not `text.trim()`, which reads a body of spaces in one go: the scan refuses a long run of them.
      const text = await decodeInTurns(bytes);
      return parseJsonInTurns(text, { parse: parseWith(request), forbidPrototypeKeys: true });
    },
  );
}

/** UTF-8 text of `bytes`, decoded a slice per turn (a character split between slices is kept whole). */
export async function decodeInTurns(
  bytes: Buffer,
  between: () => Promise<unknown> = () => nextTurn(),
): Promise<string> {
  const decoder = new StringDecoder('utf8');
  let text = '';
  for (let at = 0; at < bytes.length; at += SCAN_CHARS) {
    if (at > 0) await between();
    text += decoder.write(bytes.subarray(at, at + SCAN_CHARS));
  }
  return text + decoder.end();
}

/** A container of the outer levels too big for one piece: where its elements (members) end. */
interface Span {
  close: number;
  /** Commas directly inside it. */
  commas: Positions;
  /** Colons directly inside it (an object's). */
  colons: Positions;
}

/**
 * Character positions, kept off the JavaScript heap in chunks of CHUNK: one array of the
 * 20,000,000 commas a body may hold grew by copying itself, tens of ms at a time, and every full
 * collection walked it, holding the loop 80–120 ms (up to 650 ms with another process on the other
 * core). The first chunk starts small and doubles, as most containers scanned hold a few.
 */
class Positions {
  private static readonly CHUNK_BITS = 16;
  private static readonly CHUNK = 1 << Positions.CHUNK_BITS;
  private readonly chunks: Uint32Array[] = [];
  length = 0;
  push(at: number): void {
    const slot = this.length & (Positions.CHUNK - 1);
    let last = this.chunks[this.chunks.length - 1];
    if (!last || (slot === 0 && this.length > 0)) {
      last = new Uint32Array(last ? Positions.CHUNK : 8);
      this.chunks.push(last);
    } else if (slot === last.length) {
      const grown = new Uint32Array(last.length * 2);
      grown.set(last);
      this.chunks[this.chunks.length - 1] = last = grown;
    }
    last[slot] = at;
    this.length++;
  }
  at(k: number): number {
    return this.chunks[k >>> Positions.CHUNK_BITS]![k & (Positions.CHUNK - 1)]!;
  }
}

/** Parses `text` as JSON.parse would, letting the event loop go every TURN_MS or so. */
export interface InTurnsOptions {
  /** Parses each piece (default JSON.parse). */
  parse?: ParseJson;
  /** What runs between turns (default: the next turn of the loop). */
  between?: () => Promise<unknown>;
  pieceChars?: number;
  /** Refuse `__proto__` and `constructor.prototype` keys, as fastify's parser does. */
  forbidPrototypeKeys?: boolean;
  /**
   * Refuse a text of more values than this, 413. The default is as many as `run FILE` takes
   * (http/json-depth.ts), so that a bundle is taken or refused the same way whichever way it comes
   * (review). Counted as the scan goes, so a body of `1,1,1,…` past it is refused before it is
   * parsed: 100 MB of it (50,000,000 values) took the console down out of memory (audit).
   */
  maxValues?: number;
}

export async function parseJsonInTurns(text: string, options: InTurnsOptions = {}): Promise<unknown> {
  const {
    parse = JSON.parse,
    between = () => nextTurn(),
    pieceChars = PIECE_CHARS,
    forbidPrototypeKeys = false,
    maxValues = MAX_JSON_VALUES,
  } = options;
  let turnStarted = performance.now();
  const pause = async () => {
    if (performance.now() - turnStarted < TURN_MS) return;
    await between();
    turnStarted = performance.now();
  };
  const spans = await scan(text, between, pieceChars, maxValues);
  const start = skipSpace(text, 0);
  const end = trimEnd(text, text.length);
  if (start >= end) throw invalid('the body is empty');

  async function value(from: number, to: number): Promise<unknown> {
    const first = skipSpace(text, from);
    const last = trimEnd(text, to);
    if (first >= last) throw invalid(`a value is missing at character ${from}`);
    const span = spans.get(first);
    if (!span) return parse(text.slice(first, last));
    if (span.close !== last - 1) throw invalid(`unexpected text at character ${skipSpace(text, span.close + 1)}`);
    const parts = new Parts(text, first, span);
    return text.charCodeAt(first) === 0x5b ? arrayOf(parts) : objectOf(parts, span);
  }

  async function arrayOf(parts: Parts): Promise<unknown[]> {
    const out: unknown[] = [];
    let run: [number, number] | null = null;
    const flush = async () => {
      if (!run) return;
      for (const element of parse(`[${text.slice(run[0], run[1])}]`) as unknown[]) out.push(element);
      run = null;
      await pause();
    };
    for (let i = 0; i < parts.count; i++) {
      const from = parts.from(i);
      const to = parts.to(i);
      const first = skipSpace(text, from);
      if (first >= trimEnd(text, to)) throw invalid(`an array element is missing at character ${from}`);
      if (spans.has(first)) {
        await flush();
        out.push(await value(from, to));
      } else if (run && to - run[0] <= pieceChars) run[1] = to;
      else {
        await flush();
        run = [from, to];
      }
    }
    await flush();
    return out;
  }

  async function objectOf(parts: Parts, span: Span): Promise<Record<string, unknown>> {
    if (span.colons.length !== parts.count) throw invalid('an object member is malformed');
    const out: Record<string, unknown> = {};
    const put = (key: string, member: unknown) =>
      Object.defineProperty(out, key, { value: member, enumerable: true, writable: true, configurable: true });
    let run: [number, number] | null = null;
    const flush = async () => {
      if (!run) return;
      const members = parse(`{${text.slice(run[0], run[1])}}`) as Record<string, unknown>;
      for (const key of Object.keys(members)) put(key, members[key]);
      run = null;
      await pause();
    };
    for (let i = 0; i < parts.count; i++) {
      const from = parts.from(i);
      const to = parts.to(i);
      const colon = span.colons.at(i);
      if (colon < from || colon >= to) throw invalid('an object member is malformed');
      if (spans.has(skipSpace(text, colon + 1))) {
        await flush();
        const key = parse(text.slice(from, colon));
        if (typeof key !== 'string') throw invalid('an object key is not a string');
        const member = await value(colon + 1, to);
        // What fastify's parser refuses in a body, refused here too for a member parsed in pieces.
        if (
          forbidPrototypeKeys &&
          (key === '__proto__' ||
            (key === 'constructor' &&
              typeof member === 'object' &&
              member !== null &&
              Object.hasOwn(member, 'prototype')))
        ) {
          throw invalid('the body carries a forbidden prototype property');
        }
        put(key, member);
      } else if (run && to - run[0] <= pieceChars) run[1] = to;
      else {
        await flush();
        run = [from, to];
      }
    }
    await flush();
    return out;
  }

  return value(start, end);
}

/**
 * The element (member) ranges of a split container, between its brackets and commas, read where
 * they are: a list of them made at once for 3,000,000 elements held the loop 0.6 s.
 */
class Parts {
  readonly count: number;
  constructor(
    text: string,
    private readonly open: number,
    private readonly span: Span,
  ) {
    // `[ … ]` of nothing but spaces has no element.
    this.count = span.commas.length === 0 && skipSpace(text, open + 1) >= span.close ? 0 : span.commas.length + 1;
  }
  /** Just past the bracket or comma before element `i`. */
  from(i: number): number {
    return (i === 0 ? this.open : this.span.commas.at(i - 1)) + 1;
  }
  /** The comma or bracket after element `i`. */
  to(i: number): number {
    return i === this.span.commas.length ? this.span.close : this.span.commas.at(i);
  }
}

/**
 * Where every container of the outer SPLIT_DEPTH levels larger than PIECE_CHARS closes, with its
 * commas and colons; by where it opens. Refuses unbalanced brackets, an unterminated string,
 * nesting deeper than MAX_JSON_DEPTH and more than `maxValues` values.
 */
async function scan(
  text: string,
  between: () => Promise<unknown>,
  pieceChars: number,
  maxValues: number,
): Promise<Map<number, Span>> {
  const spans = new Map<number, Span>();
  // About the values: one, then one for each container and each comma (a next element or member).
  let values = 1;
  let containers = 0;
  const stack: { open: number; commas: Positions | null; colons: Positions | null }[] = [];
  let nextPause = SCAN_CHARS;
  let spaceFrom = 0;
  let wordFrom = 0;
  for (let i = 0; i < text.length; i++) {
    if (i >= nextPause) {
      await between();
      nextPause = i + SCAN_CHARS;
    }
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      if (i - spaceFrom >= MAX_SPACE_RUN) throw tooLong(`a run of more than ${mib(MAX_SPACE_RUN)} of whitespace`, i);
      wordFrom = i + 1;
      continue;
    }
    spaceFrom = i + 1;
    if (c === 0x22) {
      i = stringEnd(text, i, MAX_STRING_CHARS);
      spaceFrom = i + 1;
    } else if (c === 0x7b || c === 0x5b) {
      if (stack.length >= MAX_JSON_DEPTH) throw tooDeep();
      if (++values > maxValues || ++containers > MAX_JSON_CONTAINERS) throw tooMany(maxValues);
      const split = stack.length <= SPLIT_DEPTH;
      stack.push({
        open: i,
        commas: split ? new Positions() : null,
        colons: split && c === 0x7b ? new Positions() : null,
      });
    } else if (c === 0x7d || c === 0x5d) {
      const top = stack.pop();
      const opener = top ? text.charCodeAt(top.open) : -1;
      if (!top || (c === 0x7d) !== (opener === 0x7b))
        throw invalid(`an unexpected ${String.fromCharCode(c)} at character ${i}`);
      if (top.commas && i - top.open + 1 > pieceChars)
        spans.set(top.open, { close: i, commas: top.commas, colons: top.colons ?? new Positions() });
    } else if (c === 0x2c) {
      if (++values > maxValues) throw tooMany(maxValues);
      stack[stack.length - 1]?.commas?.push(i);
    } else if (c === 0x3a) {
      stack[stack.length - 1]?.colons?.push(i);
    } else {
      // A number, or true, false, null: parsed whole with its piece, and a few characters long.
      if (i - wordFrom >= MAX_WORD_CHARS)
        throw tooLong(`a number or word of more than ${mib(MAX_WORD_CHARS)}`, wordFrom);
      continue;
    }
    wordFrom = i + 1;
  }
  if (stack.length) throw invalid('the body ends before its last array or object closes');
  return spans;
}

/** The index of the quote that closes the string opening at `open`, at most `most` characters on. */
function stringEnd(text: string, open: number, most: number): number {
  // Searched in a slice (a view, not a copy) so that a string too long is refused having read no further.
  const within = text.slice(0, Math.min(text.length, open + most + 2));
  let at = open + 1;
  for (;;) {
    const quote = within.indexOf('"', at);
    if (quote < 0) {
      if (within.length < text.length) throw tooLong(`a string of more than ${mib(most)}`, open);
      throw invalid(`a string opening at character ${open} never closes`);
    }
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** One past the last non-space character before `to`. */
function trimEnd(text: string, to: number): number {
  let i = to;
  while (i > 0 && isSpace(text.charCodeAt(i - 1))) i--;
  return i;
}

const mib = (chars: number) => `${chars / (1024 * 1024)} MiB`;
const tooLong = (what: string, at: number) =>
  Object.assign(new Error(`the JSON body holds ${what} at character ${at}, more than any admin call takes`), {
    statusCode: 413,
  });
const invalid = (message: string) =>
  Object.assign(new SyntaxError(`the body is not valid JSON: ${message}`), { statusCode: 400 });
const tooMany = (maxValues: number) =>
  Object.assign(
    new Error(
      `the JSON body holds more than ${maxValues.toLocaleString('en-US')} JSON values or ${MAX_JSON_CONTAINERS.toLocaleString('en-US')} objects and arrays, more than any admin call takes: send a large queue or bundle in parts`,
    ),
    { statusCode: 413 },
  );
const notUtf8 = () =>
  Object.assign(new Error('the JSON body is not UTF-8 text (RFC 8259 §8.1): save or send it as UTF-8'), {
    statusCode: 400,
  });

const tooDeep = () =>
  Object.assign(new Error(`the JSON body nests arrays and objects more than ${MAX_JSON_DEPTH} deep`), {
    statusCode: 400,
  });
