/**
 * Reading an answer from a server the console does not own (docs/contract/console.md §9): as a
 * stream, stopped at a byte cap (the connection is dropped there, nothing more is read), and
 * parsed as JSON only when it nests no deeper than a limit, checked on the text before parsing.
 * A hostile or broken server can then cost the engine at most the cap in memory and a scan of it
 * in time, whatever it sends: an endless body, a slow drip, megabytes of `[[[[…`.
 */
import type { BodyBudget } from './body-budget.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
import { decoderOf } from './content-encoding.js';

/** The part of a web ReadableStream read here: fetch's body has it, and so does the player's node:http transport. */
export interface ByteStream {
  getReader(): Pick<ReadableStreamDefaultReader<Uint8Array>, 'read' | 'cancel' | 'releaseLock'>;
  cancel(reason?: unknown): Promise<void>;
}

/** What a response offers to read from: a fetch Response, or a synthetic answer (injected faults, tests). */
export interface BodySource {
  headers: { get(name: string): string | null };
  /** The body as a stream, when there is one (fetch); without it `text()` is read and measured. */
  body?: ByteStream | null;
  text(): Promise<string>;
}

export type CappedBody =
  | { ok: true; text: string; bytes: number }
  /**
   * Over the cap: `text` is the start of what came (up to CUT_TEXT_BYTES, enough to show), `bytes`
   * all that was read, `message` says the cap and, when known, the size.
   */
  | { ok: false; text: string; bytes: number; message: string };

/**
 * How much of a cut answer is decoded to show. The rest is never turned into text: a fleet cuts
 * many answers at the cap, and decoding each whole would cost a few times the cap in memory.
 */
export const CUT_TEXT_BYTES = 64 * 1_024;

/**
 * Reads `source` up to `maxBytes`. Past the cap the stream is cancelled (for fetch, that drops
 * the connection) and the answer is refused with a message that names the cap; a Content-Length
 * over the cap refuses it before a byte is read. When `signal` fires the read stops and throws
 * its reason, even if the stream itself never learns of it (a body that drips a byte at a time).
 * With a `budget`, the read goes past the budget's allowance only once it holds one of its slots
 * (waiting for it reads nothing more), and gives the slot back when it ends, however it ends.
 */
export async function readCappedBody(
  source: BodySource,
  maxBytes: number,
  signal?: AbortSignal,
  budget?: BodyBudget,
): Promise<CappedBody> {
  signal?.throwIfAborted();
  const declared = declaredLength(source.headers.get('content-length'));
  if (declared !== undefined && declared > maxBytes) {
    await source.body?.cancel().catch(() => undefined);
    return {
      ok: false,
      text: '',
      bytes: 0,
      message: overCap(maxBytes, `its Content-Length said ${bytesText(declared)}`),
    };
  }
  if (!source.body) return measured(await source.text(), maxBytes);

  const reader = source.body.getReader();
  // Cancelling ends a pending read with `done`; the check after each read turns that into the abort.
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let releaseSlot: (() => void) | undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      if (budget && !releaseSlot && bytes + value.byteLength > budget.allowanceBytes)
        releaseSlot = await budget.slot(signal);
      if (bytes + value.byteLength > maxBytes) {
        chunks.push(value.subarray(0, maxBytes - bytes));
        bytes = maxBytes;
        await reader.cancel().catch(() => undefined);
        return {
          ok: false,
          text: decodeStart(chunks, CUT_TEXT_BYTES),
          bytes,
          message: overCap(maxBytes, decodedFrom(source.headers.get('content-encoding'))),
        };
      }
      chunks.push(value);
      bytes += value.byteLength;
    }
  } finally {
    releaseSlot?.();
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
  return { ok: true, text: decode(chunks, bytes), bytes };
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * `JSON.parse`, refusing first (in one linear scan that stops at the limit) a text that nests
 * deeper than `maxDepth`: a few megabytes of brackets would otherwise build millions of nested
 * arrays that every later walk over the value runs out of stack on.
 */
export function parseJsonWithin(text: string, maxDepth = MAX_JSON_DEPTH): ParsedJson {
  const deep = depthRefusal(text, maxDepth);
  if (deep) return { ok: false, message: deep };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, message: 'a body that is not JSON' };
  }
}

/** Why a text is not parsed, when it nests deeper than `maxDepth`; undefined when it may be. */
export function depthRefusal(text: string, maxDepth = MAX_JSON_DEPTH): string | undefined {
  return nestsDeeperThan(text, maxDepth)
    ? `the answer nests more than ${maxDepth} JSON arrays and objects inside one another, deeper than the console reads`
    : undefined;
}

/** `1 MB (1,048,576 bytes)`, `512 KB (524,288 bytes)`, `900 bytes`. */
export function bytesText(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} bytes`;
  if (bytes >= 1_048_576) return `${trim(bytes / 1_048_576)} MB (${exact})`;
  if (bytes >= 1_024) return `${trim(bytes / 1_024)} KB (${exact})`;
  return exact;
}

/**
 * The cap counts what is read, decoded: a compressed answer over it may be small on the wire, and
 * "over 1 MB" beside a Content-Length of 250 KB read as wrong (audit Z4: a gzip bomb).
 */
function decodedFrom(encoding: string | null): string | undefined {
  const named = encoding?.trim().toLowerCase();
  // Only one of those the players' transport and fetch decode, alone: another is read as it came.
  return named !== undefined && decoderOf(named) !== null ? `as decoded from its ${named} Content-Encoding` : undefined;
}

function overCap(maxBytes: number, known?: string): string {
  return `the answer was over ${bytesText(maxBytes)} and was cut there${known ? ` (${known})` : ''}`;
}

function measured(text: string, maxBytes: number): CappedBody {
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return { ok: true, text, bytes };
  return {
    ok: false,
    text: decodeStart([Buffer.from(text.slice(0, CUT_TEXT_BYTES))], Math.min(maxBytes, CUT_TEXT_BYTES)),
    bytes: maxBytes,
    message: overCap(maxBytes, `it was ${bytesText(bytes)}`),
  };
}

function declaredLength(header: string | null): number | undefined {
  if (header === null || !/^\s*\d+\s*$/.test(header)) return undefined;
  return Number(header);
}

/** As `Response.text()` decodes: UTF-8, a leading BOM dropped, a broken sequence (a cut) replaced. */
function decode(chunks: Uint8Array[], bytes: number): string {
  return new TextDecoder().decode(Buffer.concat(chunks, bytes));
}

/** The first `bytes` of `chunks`, decoded (a sequence broken at the end replaced). */
function decodeStart(chunks: Uint8Array[], bytes: number): string {
  const start: Uint8Array[] = [];
  let taken = 0;
  for (const chunk of chunks) {
    if (taken >= bytes) break;
    const part = chunk.byteLength > bytes - taken ? chunk.subarray(0, bytes - taken) : chunk;
    start.push(part);
    taken += part.byteLength;
  }
  return decode(start, taken);
}

function trim(value: number): string {
  return String(Math.round(value * 10) / 10);
}
