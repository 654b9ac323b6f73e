/**
 * A header block's secrets masked at capture (docs/contract/console.md §9): credentials by the
 * name of their line (authorization, cookie, set-cookie, API keys: `redact.ts` says which),
 * Location's secret parameters, and every known secret in the value of a header of any name.
 *
 * Read line by line, not char by char: a line's name is compared with the secret names as long as
 * it (built once, here), a credential line is masked whole without being read for known secrets,
 * and only the other values long enough to hold one are. A fleet's request blocks never repeat
 * (each has its own `X-Request-Id`), so this pass is what every one of them costs.
 *
 * A block with a line break other than CRLF or LF (a lone CR, U+2028, U+2029) is read by the
 * regular expression instead, which starts a line after each of them: the same lines are masked
 * whatever the block holds.
 */
import type { HeaderBlock } from './log/index.js';
import { mask, maskCredential, SECRET_HEADERS } from '../api/redact.js';
import { MIN_SECRET_LENGTH, type KnownSecrets } from '../security/known-secrets.js';
import { applyStretches, learn, urlStretches, type Stretch } from './text-stretches.js';

/** A header stretch, with the header's lower-case name (what `held` keeps it under). */
export interface HeaderStretch extends Stretch {
  name: string;
}

/** A header block masked: the block stored, and the masked headers as reads show them. */
export interface MaskedBlock {
  block: HeaderBlock;
  held: Record<string, string>;
}

const LOCATION = 'location';

/** The secret names (and Location) by their length: a line's name is compared only with those as long as it. */
const NAMES_BY_LENGTH: string[][] = [];
for (const name of [...SECRET_HEADERS, LOCATION]) (NAMES_BY_LENGTH[name.length] ??= []).push(name);

/** A secret header's line (or a Location's): the name, then the value after the colon. */
const SECRET_HEADER_LINE = new RegExp(
  `^(${[...SECRET_HEADERS, LOCATION].join('|')})[ \\t]*:[ \\t]*([^\\r\\n]*)`,
  'gim',
);

const SPACE = 32;
const TAB = 9;
const CR = 13;
const LF = 10;

/**
 * The secret name (lower case) that `block[from, to)` spells in any case, or null; no string is
 * made. Only ASCII letters fold, as they do for a regular expression with the `i` flag.
 */
function secretNameAt(block: string, from: number, to: number): string | null {
  const names = NAMES_BY_LENGTH[to - from];
  if (names === undefined) return null;
  for (let n = 0; n < names.length; n++) {
    const name = names[n]!;
    let i = 0;
    for (; i < name.length; i++) {
      let code = block.charCodeAt(from + i);
      if (code >= 65 && code <= 90) code += 32;
      if (code !== name.charCodeAt(i)) break;
    }
    if (i === name.length) return name;
  }
  return null;
}

/** The stretch (or, for Location, stretches) of a secret line whose value is `[start, end)`. */
function pushByName(found: HeaderStretch[], block: HeaderBlock, name: string, start: number, end: number): void {
  const raw = block.slice(start, end);
  const value = raw.trim();
  if (value === '') return;
  if (name === LOCATION) {
    // Only the secret parameters: the rest of the address stays readable.
    const offset = start + raw.indexOf(value);
    for (const stretch of urlStretches(value))
      found.push({ start: offset + stretch.start, end: offset + stretch.end, masked: stretch.masked, name });
    return;
  }
  found.push({ start, end, masked: maskCredential(value), name });
}

/** The credential lines of a block, masked by name, in order: one pass over its lines. */
export function headerStretchesByName(block: HeaderBlock): HeaderStretch[] {
  const found: HeaderStretch[] = [];
  if (hasOddBreak(block)) return byExpression(block, found);
  for (const line = new HeaderLines(block); line.next();) {
    const { from, colon, end } = line;
    if (colon >= end) continue;
    let nameEnd = colon;
    while (nameEnd > from && isBlank(block.charCodeAt(nameEnd - 1))) nameEnd--;
    const name = secretNameAt(block, from, nameEnd);
    if (name !== null) {
      let start = colon + 1;
      while (start < end && isBlank(block.charCodeAt(start))) start++;
      pushByName(found, block, name, start, end);
    }
  }
  return found;
}

/**
 * A block's lines (split at LF, a CR before it left out), each with the first colon at or after
 * its start, for the passes by name and by value to read alike. No closures: this runs on every
 * exchange. The walk ends at the last colon: a line after it holds no header.
 */
class HeaderLines {
  /** The current line: where it starts and ends, and the first colon at or after its start (maybe past its end). */
  from = 0;
  end = 0;
  colon = -1;
  private following = 0;

  constructor(private readonly block: HeaderBlock) {}

  /** Moves to the next line; false once none is left that could hold a header. */
  next(): boolean {
    const { block } = this;
    this.from = this.following;
    if (this.from >= block.length) return false;
    let next = block.indexOf('\n', this.from);
    if (next === -1) next = block.length;
    this.end = next > this.from && block.charCodeAt(next - 1) === CR ? next - 1 : next;
    // Kept across lines that have none.
    if (this.colon < this.from) this.colon = block.indexOf(':', this.from);
    this.following = next + 1;
    return this.colon !== -1;
  }
}

/** The block `hasOddBreak` answered for last, and its answer: the passes by name and by value ask of the same block in turn. */
let oddAsked: HeaderBlock | null = null;
let oddAnswer = false;

/**
 * Whether the block has a line break the line-by-line pass does not split on (a CR without its
 * LF, U+2028, U+2029): such a block goes to the regular expression. A block of one-byte
 * characters (all Node gives) cannot hold U+2028, and `indexOf` answers that without reading it.
 */
function hasOddBreak(block: HeaderBlock): boolean {
  if (block !== oddAsked) {
    oddAsked = block;
    oddAnswer = block.indexOf('\u2028') !== -1 || block.indexOf('\u2029') !== -1;
    for (let cr = block.indexOf('\r'); cr !== -1 && !oddAnswer; cr = block.indexOf('\r', cr + 1))
      oddAnswer = block.charCodeAt(cr + 1) !== LF;
  }
  return oddAnswer;
}

function isBlank(code: number): boolean {
  return code === SPACE || code === TAB;
}

/** The credential lines as the regular expression finds them: every line break starts a line. */
function byExpression(block: HeaderBlock, found: HeaderStretch[]): HeaderStretch[] {
  SECRET_HEADER_LINE.lastIndex = 0;
  for (let match = SECRET_HEADER_LINE.exec(block); match !== null; match = SECRET_HEADER_LINE.exec(block)) {
    const raw = match[2]!;
    const start = match.index + match[0].length - raw.length;
    pushByName(found, block, match[1]!.toLowerCase(), start, start + raw.length);
  }
  return found;
}

/** Whether a stretch found by name overlaps `[start, end)`. */
function takenByName(byName: readonly HeaderStretch[], start: number, end: number): boolean {
  for (let i = 0; i < byName.length; i++) if (start < byName[i]!.end && end > byName[i]!.start) return true;
  return false;
}

/**
 * Known secrets in the values of a block (not in a name, not in a status line), outside what was
 * masked by name, added to `stretches` under the name of their line. Line by line, as
 * `headerStretchesByName` reads them: a credential line's value is masked whole already, and a
 * value shorter than a secret's least length cannot hold one.
 */
function pushByValue(block: HeaderBlock, known: KnownSecrets, byName: HeaderStretch[], into: HeaderStretch[]): void {
  if (known.size === 0) return;
  if (hasOddBreak(block)) return byValueAnywhere(block, known, byName, into);
  // The next stretch found by name (they are in order): a credential's line is masked whole.
  let taken = 0;
  for (const line = new HeaderLines(block); line.next();) {
    const { from, colon, end } = line;
    while (taken < byName.length && byName[taken]!.end < from) taken++;
    const whole = taken < byName.length && byName[taken]!.end === end && byName[taken]!.name !== LOCATION;
    if (!whole && colon > from && colon < end && end - colon > MIN_SECRET_LENGTH && !block.startsWith('HTTP/', from)) {
      const value = block.slice(colon + 1, end);
      const found = known.find(value);
      for (let i = 0; i < found.length; i++) {
        const start = colon + 1 + found[i]!.start;
        const stop = colon + 1 + found[i]!.end;
        if (takenByName(byName, start, stop)) continue;
        const name = block.slice(from, colon).trim().toLowerCase();
        into.push({ start, end: stop, masked: mask(block.slice(start, stop)), name });
      }
    }
  }
}

/** Known secrets anywhere in a block with odd line breaks, kept where they stand in a header's value. */
function byValueAnywhere(
  block: HeaderBlock,
  known: KnownSecrets,
  byName: HeaderStretch[],
  into: HeaderStretch[],
): void {
  for (const { start, end } of known.find(block)) {
    if (takenByName(byName, start, end)) continue;
    const name = headerAround(block, start);
    if (name !== null) into.push({ start, end, masked: mask(block.slice(start, end)), name });
  }
}

/** The name of the header line around `at`; null when `at` is not in a value (a status line, a name). */
function headerAround(block: HeaderBlock, at: number): string | null {
  const lineStart = block.lastIndexOf('\n', at - 1) + 1;
  let lineEnd = block.indexOf('\n', at);
  if (lineEnd === -1) lineEnd = block.length;
  const line = block.slice(lineStart, lineEnd).replace(/\r$/, '');
  const colon = line.indexOf(':');
  if (colon <= 0 || lineStart + colon >= at || /^HTTP\//.test(line)) return null;
  return line.slice(0, colon).trim().toLowerCase();
}

/**
 * Whether `block[from, to)`, trimmed and in lower case, is `name` (lower case ASCII). An ASCII
 * name is compared where it stands; any other goes through `trim` and `toLowerCase`, as reads do.
 */
function nameIs(block: HeaderBlock, from: number, to: number, name: string): boolean {
  let start = from;
  let end = to;
  while (start < end && isAsciiSpace(block.charCodeAt(start))) start++;
  while (end > start && isAsciiSpace(block.charCodeAt(end - 1))) end--;
  // Most lines are told apart by their first letter (an ASCII letter lower-cases alone).
  const first = block.charCodeAt(start);
  if (name !== '' && first < 128 && (first >= 65 && first <= 90 ? first + 32 : first) !== name.charCodeAt(0))
    return false;
  let ascii = true;
  for (let i = start; i < end && ascii; i++) ascii = block.charCodeAt(i) < 128;
  if (!ascii) return block.slice(from, to).trim().toLowerCase() === name;
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) {
    let code = block.charCodeAt(start + i);
    if (code >= 65 && code <= 90) code += 32;
    if (code !== name.charCodeAt(i)) return false;
  }
  return true;
}

/** The white space `trim` removes among ASCII characters. */
function isAsciiSpace(code: number): boolean {
  return code === SPACE || (code >= TAB && code <= CR);
}

/**
 * The value reads show for header `name` (lower case) of a block: its lines' values joined with
 * ", ", as `parseHeaderBlock` gives them, without building the object of every header.
 */
function headerValueOf(block: HeaderBlock, name: string): string | undefined {
  let value: string | undefined;
  let colon = -1;
  for (let from = 0; from < block.length;) {
    let end = block.indexOf('\r\n', from);
    if (end === -1) end = block.length;
    if (colon < from) colon = block.indexOf(':', from);
    if (colon === -1) break;
    if (colon > from && colon < end && !block.startsWith('HTTP/', from) && nameIs(block, from, colon, name)) {
      const each = block.slice(colon + 1, end).trim();
      value = value === undefined ? each : `${value}, ${each}`;
    }
    from = end + 2;
  }
  return value;
}

/**
 * A header block with credentials masked, Location's secret parameters, and known secrets in any
 * header; null when it has none. `held`: the masked headers as reads show them (lower-case name,
 * repeated lines joined). `learned`: what was found by name is known already.
 */
export function maskHeaderBlock(
  block: HeaderBlock,
  known?: KnownSecrets,
  byName: HeaderStretch[] = headerStretchesByName(block),
  learned = false,
): MaskedBlock | null {
  if (byName.length === 0 && !known) return null;
  let stretches: HeaderStretch[] = byName;
  if (known) {
    if (!learned) learn(known, block, byName);
    const byValue: HeaderStretch[] = [];
    pushByValue(block, known, byName, byValue);
    if (byValue.length > 0) stretches = [...byName, ...byValue].sort((a, b) => a.start - b.start);
  }
  const masked = applyStretches(block, stretches);
  if (masked === null) return null;
  // As reads show the block: repeated lines of a name joined, the unmasked ones among them too.
  const held: Record<string, string> = {};
  for (const { name } of stretches) held[name] ??= headerValueOf(block, name) ?? '';
  return { block: masked.text, held };
}
