/**
 * What one traffic entry may take (docs/contract/console.md §9): each body up to MAX_BODY_BYTES,
 * each header value up to MAX_HEADER_VALUE_BYTES and each header block up to
 * MAX_HEADER_BLOCK_BYTES. A part that was cut is noted on the entry (`cut`) with the size it came
 * in, so that nobody takes a cut body for the whole answer. With the log's byte budget, this is
 * what keeps requests without credentials from growing the log by their size.
 */
import type { TrafficCutPart } from '../api/traffic-types.js';
import type { NewTrafficEntry } from './log/index.js';

export const MAX_BODY_BYTES = 64 * 1024;
/**
 * Header sizes are counted in characters: Node reads request headers as latin1, a character a
 * byte as they came. A value of 1 KiB holds any real header (a bearer token, a cookie); a 15 KB
 * header sent to grow the log is kept as its first KiB.
 */
export const MAX_HEADER_VALUE_BYTES = 1024;
export const MAX_HEADER_BLOCK_BYTES = 8 * 1024;

/** A header line whose value is longer than MAX_HEADER_VALUE_BYTES: name and separator, then the value. */
const LONG_VALUE = new RegExp(`^([^\\r\\n:]*:[ \\t]*)([^\\r\\n]{${MAX_HEADER_VALUE_BYTES + 1},})`, 'gm');

/** The first `maxBytes` bytes of UTF-8 as text, not splitting a character. */
export function decodeCut(bytes: Buffer, maxBytes: number): { text: string; kept: number } {
  let end = Math.min(maxBytes, bytes.length);
  // Back to the first byte of a character the cut fell inside (continuation bytes are 10xxxxxx).
  if (end < bytes.length) while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { text: bytes.toString('utf8', 0, end), kept: end };
}

/** A body cut to `maxBytes` of UTF-8, with what was kept and its size as it came; null when it fits. */
export function cutBody(text: string, maxBytes = MAX_BODY_BYTES): { text: string; kept: number; size: number } | null {
  // A UTF-16 unit is at most three bytes: most bodies are told apart without counting theirs.
  if (text.length * 3 <= maxBytes) return null;
  const size = Buffer.byteLength(text);
  if (size <= maxBytes) return null;
  // Any `maxBytes` characters come to `maxBytes` bytes or more.
  return { ...decodeCut(Buffer.from(text.slice(0, maxBytes)), maxBytes), size };
}

/** A header block with each value cut to MAX_HEADER_VALUE_BYTES and the whole cut to MAX_HEADER_BLOCK_BYTES at a line's end; null when it fits. */
export function cutHeaderBlock(block: string): string | null {
  if (block.length <= MAX_HEADER_VALUE_BYTES) return null;
  let cut = block.replace(
    LONG_VALUE,
    (_, head: string, value: string) => head + value.slice(0, MAX_HEADER_VALUE_BYTES),
  );
  if (cut.length > MAX_HEADER_BLOCK_BYTES) {
    const lineEnd = cut.lastIndexOf('\r\n', MAX_HEADER_BLOCK_BYTES - 2);
    cut = lineEnd > 0 ? cut.slice(0, lineEnd + 2) : cut.slice(0, MAX_HEADER_BLOCK_BYTES);
  }
  return cut === block ? null : cut;
}

function noteCut(entry: NewTrafficEntry, part: TrafficCutPart, kept: number, size: number): void {
  (entry.cut ??= {})[part] = { kept, size };
}

/** Cuts the bodies, before secrets are masked in them (masking reads what is kept, not a 300 MB answer). */
export function cutBodies(entry: NewTrafficEntry): void {
  if (entry.requestBody !== null) {
    const cut = cutBody(entry.requestBody);
    if (cut) {
      entry.requestBody = cut.text;
      noteCut(entry, 'requestBody', cut.kept, cut.size);
    }
  }
  if (entry.responseBody !== null) {
    const cut = cutBody(entry.responseBody);
    if (cut) {
      entry.responseBody = cut.text;
      noteCut(entry, 'responseBody', cut.kept, cut.size);
    }
  }
}

/** Cuts the header blocks, after secrets are masked in them (a long token is masked whole, and held whole). */
export function cutHeaders(entry: NewTrafficEntry): void {
  const request = cutHeaderBlock(entry.requestHeaders);
  if (request !== null) {
    noteCut(entry, 'requestHeaders', request.length, entry.requestHeaders.length);
    entry.requestHeaders = request;
  }
  const response = cutHeaderBlock(entry.responseHeaders);
  if (response !== null) {
    noteCut(entry, 'responseHeaders', response.length, entry.responseHeaders.length);
    entry.responseHeaders = response;
  }
}
