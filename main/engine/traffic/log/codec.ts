/**
 * How the traffic log stores exchanges: a segment holds the entries one flush writes, as one row
 * of `traffic_segments` (ids `first_id`…`last_id`, consecutive). Each exchange is encoded into the
 * segment when it is captured, while its strings are still in the CPU's caches and before the
 * collector has moved them: the numbers into typed columns, the strings into one UTF-8 run. The
 * flush then writes two blobs. Measured under load, writing a batch of entry objects cost about
 * 3.8 µs per entry whatever the layout (one row each, or one JSON row per batch): by the time the
 * batch was written its entries had gone cold and survived a scavenge or two. Encoded at capture,
 * an exchange costs about 1.5 µs to encode and write.
 *
 * `summary` blob, little-endian, each column 8-byte aligned:
 *   u32 FORMAT, u32 count,
 *   f64 at[count], f64 wallAt[count], i32 status[count], i32 latencyMs[count], i32 retry[count],
 *   i32 responseBodyId[count], u8 target[count], u8 outcome[count],
 *   u32 lengths[count × SUMMARY_PARTS], then the parts' text as UTF-8.
 * `detail` blob: u32 DETAIL_FORMAT, u32 count, u32 lengths[count × DETAIL_PARTS], then the text.
 * Format 2 added a sixth part, the entry's notes: `m` when capture masked secrets in it, then the
 * parts it cut as JSON (`TrafficCut`); none when neither (see `notesOf`). Format 1 segments (five
 * parts, written before capture masked) are still read.
 *
 * A part's length is in UTF-16 code units (what `String.length` counts; UTF-8 round-trips it, a
 * lone surrogate becoming one U+FFFD, unless the part after it starts with its other half: an
 * entry's parts are encoded joined, and the pair comes back as it was), NONE for null, so the text
 * of a whole segment decodes in one call and parts are sliced from it. -1 stands for a null
 * number; a response body id of 0 means the body is the entry's own `responseBody` part (see
 * `bodies.ts` for shared ones).
 * `summary` holds what a list row and the filters need, so reading the log's index at start-up
 * and a page of rows never read the headers and bodies in `detail`.
 */
import {
  TRAFFIC_TARGETS,
  type TrafficCut,
  type TrafficOutcome,
  type TrafficSummary,
  type TrafficTarget,
} from '../../api/traffic-types.js';
import type { FaultHit } from '../../api/fault-types.js';
import type { HeaderBlock } from './header-block.js';
import type { HeldParts } from './held.js';

/** An exchange as capture hands it over, headers as header blocks (see `header-block.ts`). */
export interface NewTrafficEntry extends Omit<TrafficSummary, 'id'> {
  url: string;
  requestHeaders: HeaderBlock;
  requestBody: string | null;
  responseHeaders: HeaderBlock;
  responseBody: string | null;
  /** Capture masked secrets in the entry (stored in its notes). */
  masked?: boolean;
  /** What capture cut to keep the entry within its size (stored in its notes). */
  cut?: TrafficCut | null;
  /** What capture masked, as it came: held in memory only, never encoded (see `held.ts`). */
  held?: HeldParts | null;
}

/** What an entry's notes say (see the `detail` blob); null for a format 1 entry, which has none. */
export interface EntryNotes {
  masked: boolean;
  cut: TrafficCut | null;
}

/** What `detail` holds of an entry (its `responseBody` is null when the summary names a shared one). */
export type SegmentDetail = Pick<
  NewTrafficEntry,
  'url' | 'requestHeaders' | 'requestBody' | 'responseHeaders' | 'responseBody'
>;

const FORMAT = 1;
const DETAIL_FORMAT = 2;
const NONE = 0xffff_ffff;
const OUTCOMES: readonly TrafficOutcome[] = ['answered', 'timeout', 'dropped', 'incomplete'];
/** method, path, reason, playerId, requestId, fault (JSON) */
const SUMMARY_PARTS = 6;
/** url, requestHeaders, requestBody, responseHeaders, responseBody, notes (format 1: no notes) */
const DETAIL_PARTS = 6;
const DETAIL_PARTS_OF: Readonly<Record<number, number>> = { 1: 5, 2: DETAIL_PARTS };
export const PART = { reason: 2, requestId: 4 } as const;

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1)
  throw new Error('the traffic log is stored little-endian, as typed arrays are on every platform the console runs on');

/** Plain arithmetic, not `& ~7`: a damaged blob's count can make offsets past 32 bits. */
const align8 = (n: number) => Math.ceil(n / 8) * 8;

/** Byte offsets of a summary blob's columns for `count` entries. */
function summaryLayout(count: number) {
  const at = 8;
  const wallAt = at + 8 * count;
  const status = wallAt + 8 * count;
  const latencyMs = align8(status + 4 * count);
  const retry = align8(latencyMs + 4 * count);
  const bodyId = align8(retry + 4 * count);
  const target = align8(bodyId + 4 * count);
  const outcome = target + count;
  const lengths = align8(outcome + count);
  const text = lengths + 4 * count * SUMMARY_PARTS;
  return { at, wallAt, status, latencyMs, retry, bodyId, target, outcome, lengths, text };
}

const detailLayout = (count: number, parts = DETAIL_PARTS) => ({ lengths: 8, text: 8 + 4 * count * parts });

/** An entry's notes as stored: null when there is nothing to note (most entries). */
function notesOf(entry: NewTrafficEntry): string | null {
  const cut = entry.cut ? JSON.stringify(entry.cut) : '';
  return entry.masked || cut ? (entry.masked ? 'm' : '') + cut : null;
}

/** A buffer kept for reuse, grown (keeping its first `keep` bytes) when more is needed. */
function roomFor(buffer: Buffer, size: number, keep: number): Buffer {
  if (size <= buffer.length) return buffer;
  const grown = Buffer.allocUnsafeSlow(Math.max(size, buffer.length * 2));
  buffer.copy(grown, 0, 0, keep);
  return grown;
}

/** A growable UTF-8 run: `Buffer.write` needs room for three bytes per UTF-16 unit before it writes. */
class TextRun {
  bytes = 0;
  private buffer: Buffer;

  constructor(initial: number) {
    this.buffer = Buffer.allocUnsafeSlow(initial);
  }

  write(text: string): void {
    this.buffer = roomFor(this.buffer, this.bytes + text.length * 3, this.bytes);
    this.bytes += this.buffer.write(text, this.bytes);
  }

  copyTo(target: Uint8Array, at: number): void {
    target.set(this.buffer.subarray(0, this.bytes), at);
  }
}

/** A column that grows with the segment. */
function grown<T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(column: T, size: number): T {
  if (size <= column.length) return column;
  const next = new (column.constructor as new (n: number) => T)(Math.max(size, column.length * 2));
  next.set(column);
  return next;
}

const number = (value: number | null) => (value === null ? -1 : value);
const nullable = (value: number) => (value === -1 ? null : value);
const length = (value: string | null) => (value === null ? NONE : value.length);

/** Copies a column's first `size` elements into a blob at a byte offset. */
function put(
  blob: Buffer,
  at: number,
  column: Float64Array | Int32Array | Uint32Array | Uint8Array,
  size: number,
): void {
  blob.set(new Uint8Array(column.buffer, column.byteOffset, size * column.BYTES_PER_ELEMENT), at);
}

/**
 * The segment being captured: entries are encoded as they come, and `encode` hands over the two
 * blobs. Besides what it stores, it keeps for each entry the keys the log's index files it under
 * (`reasonKey`, `requestKey`: see `entry-index.ts`), so that a write adds the segment to the
 * index without reading it back. Every buffer is kept for the next segment.
 */
export class SegmentWriter {
  count = 0;
  at = new Float64Array(512);
  status = new Int32Array(512);
  target = new Uint8Array(512);
  reasonKey = new Uint32Array(512);
  requestKey = new Uint32Array(512);
  private wallAt = new Float64Array(512);
  private latencyMs = new Int32Array(512);
  private retry = new Int32Array(512);
  private bodyId = new Int32Array(512);
  private outcome = new Uint8Array(512);
  private summaryLengths = new Uint32Array(512 * SUMMARY_PARTS);
  private detailLengths = new Uint32Array(512 * DETAIL_PARTS);
  private readonly summaryText = new TextRun(64 * 1024);
  private readonly detailText = new TextRun(256 * 1024);
  private summaryBlob: Buffer = Buffer.allocUnsafeSlow(0);
  private detailBlob: Buffer = Buffer.allocUnsafeSlow(0);

  /** What the segment would take on disk, near enough to bound it. */
  get bytes(): number {
    return this.count * 64 + this.summaryText.bytes + this.detailText.bytes;
  }

  /**
   * Adds an exchange; `responseBodyId` > 0: its response body is that shared one, not kept here.
   * `reasonKey` and `requestKey`: what the index files it under (0 where no index reads them).
   */
  add(entry: NewTrafficEntry, responseBodyId: number, reasonKey = 0, requestKey = 0): void {
    const i = this.count;
    if (i === this.at.length) this.grow(i + 1);
    this.reasonKey[i] = reasonKey;
    this.requestKey[i] = requestKey;
    this.at[i] = entry.at;
    this.wallAt[i] = entry.wallAt;
    this.status[i] = number(entry.status);
    this.latencyMs[i] = number(entry.latencyMs);
    this.retry[i] = number(entry.retry);
    this.bodyId[i] = responseBodyId;
    this.target[i] = TRAFFIC_TARGETS.indexOf(entry.target);
    this.outcome[i] = OUTCOMES.indexOf(entry.outcome);

    const { method, path, reason, playerId, requestId } = entry;
    const fault = entry.fault === null ? null : JSON.stringify(entry.fault);
    let k = i * SUMMARY_PARTS;
    const summary = this.summaryLengths;
    summary[k++] = method.length;
    summary[k++] = path.length;
    summary[k++] = length(reason);
    summary[k++] = length(playerId);
    summary[k++] = length(requestId);
    summary[k] = length(fault);
    // One write of the parts joined: each write is a call into native code.
    this.summaryText.write(method + path + (reason ?? '') + (playerId ?? '') + (requestId ?? '') + (fault ?? ''));

    const { url, requestHeaders, requestBody, responseHeaders } = entry;
    const responseBody = responseBodyId > 0 ? null : entry.responseBody;
    const notes = entry.masked || entry.cut ? notesOf(entry) : null;
    k = i * DETAIL_PARTS;
    const detail = this.detailLengths;
    detail[k++] = url.length;
    detail[k++] = requestHeaders.length;
    detail[k++] = length(requestBody);
    detail[k++] = responseHeaders.length;
    detail[k++] = length(responseBody);
    detail[k] = length(notes);
    this.detailText.write(
      url + requestHeaders + (requestBody ?? '') + responseHeaders + (responseBody ?? '') + (notes ?? ''),
    );
    this.count = i + 1;
  }

  /** The two blobs: views of buffers the next `encode` writes over. */
  encode(): { summary: Buffer; detail: Buffer } {
    const n = this.count;
    const s = summaryLayout(n);
    const summarySize = s.text + this.summaryText.bytes;
    this.summaryBlob = roomFor(this.summaryBlob, summarySize, 0);
    // Zeroed first, so that the padding between columns is the same in every segment.
    const summary = this.summaryBlob.subarray(0, summarySize).fill(0, 0, s.text);
    const head = new Uint32Array(summary.buffer, summary.byteOffset, 2);
    head[0] = FORMAT;
    head[1] = n;
    put(summary, s.at, this.at, n);
    put(summary, s.wallAt, this.wallAt, n);
    put(summary, s.status, this.status, n);
    put(summary, s.latencyMs, this.latencyMs, n);
    put(summary, s.retry, this.retry, n);
    put(summary, s.bodyId, this.bodyId, n);
    put(summary, s.target, this.target, n);
    put(summary, s.outcome, this.outcome, n);
    put(summary, s.lengths, this.summaryLengths, n * SUMMARY_PARTS);
    this.summaryText.copyTo(summary, s.text);

    const d = detailLayout(n);
    const detailSize = d.text + this.detailText.bytes;
    this.detailBlob = roomFor(this.detailBlob, detailSize, 0);
    const detail = this.detailBlob.subarray(0, detailSize);
    const detailHead = new Uint32Array(detail.buffer, detail.byteOffset, 2);
    detailHead[0] = DETAIL_FORMAT;
    detailHead[1] = n;
    put(detail, d.lengths, this.detailLengths, n * DETAIL_PARTS);
    this.detailText.copyTo(detail, d.text);
    return { summary, detail };
  }

  /** Empties the segment for the next one (its buffers are kept). */
  reset(): void {
    this.count = 0;
    this.summaryText.bytes = 0;
    this.detailText.bytes = 0;
  }

  private grow(size: number): void {
    this.reasonKey = grown(this.reasonKey, size);
    this.requestKey = grown(this.requestKey, size);
    this.at = grown(this.at, size);
    this.wallAt = grown(this.wallAt, size);
    this.status = grown(this.status, size);
    this.latencyMs = grown(this.latencyMs, size);
    this.retry = grown(this.retry, size);
    this.bodyId = grown(this.bodyId, size);
    this.target = grown(this.target, size);
    this.outcome = grown(this.outcome, size);
    this.summaryLengths = grown(this.summaryLengths, this.at.length * SUMMARY_PARTS);
    this.detailLengths = grown(this.detailLengths, this.at.length * DETAIL_PARTS);
  }
}

/** A blob as an aligned view (typed arrays need their element size's alignment; SQLite's copies have none promised). */
function aligned(blob: Uint8Array): Uint8Array {
  return blob.byteOffset % 8 === 0 ? blob : new Uint8Array(blob);
}

/** Stored traffic that does not hold together (a torn write, say): a blob that contradicts its own layout, a row that cannot be read. */
export class DamagedTrafficError extends Error {}

/** A blob's format (one of `formats`), and its entry count, whose layout needs at least `textAt(count, format)` bytes. */
function checkFormat(
  blob: Uint8Array,
  what: string,
  formats: readonly number[],
  textAt: (count: number, format: number) => number,
): { format: number; count: number } {
  if (blob.byteLength < 8) throw new DamagedTrafficError(`traffic segment ${what} is cut short`);
  const head = new Uint32Array(blob.buffer, blob.byteOffset, 2);
  const format = head[0]!;
  if (!formats.includes(format))
    throw new DamagedTrafficError(
      `traffic segment ${what} has format ${format}, this console reads ${formats.join(' and ')}`,
    );
  const count = head[1]!;
  if (textAt(count, format) > blob.byteLength)
    throw new DamagedTrafficError(`traffic segment ${what} is shorter than its ${count} entries need`);
  return { format, count };
}

/** The parts of a decoded run; their lengths must add up to the text, or the run is damaged. */
class Parts {
  /** Where each part starts in the text: `starts[k]`, k = entry × parts + part. */
  private readonly starts: Uint32Array;

  constructor(
    private readonly lengths: Uint32Array,
    private readonly text: string,
  ) {
    const starts = new Uint32Array(lengths.length);
    let at = 0;
    for (let k = 0; k < lengths.length; k++) {
      starts[k] = at;
      const n = lengths[k]!;
      if (n !== NONE) at += n;
    }
    if (at !== text.length)
      throw new DamagedTrafficError(`traffic segment parts add up to ${at} characters, its text has ${text.length}`);
    this.starts = starts;
  }

  get(k: number): string | null {
    const n = this.lengths[k]!;
    if (n === NONE) return null;
    const start = this.starts[k]!;
    return this.text.slice(start, start + n);
  }
}

/** A stored segment's summary blob, read: columns as views, strings sliced from one decoded run. */
export class SegmentSummary {
  readonly count: number;
  readonly at: Float64Array;
  readonly wallAt: Float64Array;
  readonly status: Int32Array;
  readonly latencyMs: Int32Array;
  readonly retry: Int32Array;
  readonly responseBodyId: Int32Array;
  readonly target: Uint8Array;
  readonly outcome: Uint8Array;
  private readonly parts: Parts;

  constructor(
    readonly firstId: number,
    blob: Uint8Array,
  ) {
    const bytes = aligned(blob);
    const n = checkFormat(bytes, 'summary', [FORMAT], (count) => summaryLayout(count).text).count;
    const s = summaryLayout(n);
    const { buffer, byteOffset } = bytes;
    this.count = n;
    this.at = new Float64Array(buffer, byteOffset + s.at, n);
    this.wallAt = new Float64Array(buffer, byteOffset + s.wallAt, n);
    this.status = new Int32Array(buffer, byteOffset + s.status, n);
    this.latencyMs = new Int32Array(buffer, byteOffset + s.latencyMs, n);
    this.retry = new Int32Array(buffer, byteOffset + s.retry, n);
    this.responseBodyId = new Int32Array(buffer, byteOffset + s.bodyId, n);
    this.target = new Uint8Array(buffer, byteOffset + s.target, n);
    this.outcome = new Uint8Array(buffer, byteOffset + s.outcome, n);
    const lengths = new Uint32Array(buffer, byteOffset + s.lengths, n * SUMMARY_PARTS);
    this.parts = new Parts(
      lengths,
      Buffer.from(buffer, byteOffset + s.text, bytes.byteLength - s.text).toString('utf8'),
    );
  }

  get lastId(): number {
    return this.firstId + this.count - 1;
  }

  /** One of an entry's string parts (PART.reason, PART.requestId). */
  part(i: number, part: number): string | null {
    return this.parts.get(i * SUMMARY_PARTS + part);
  }

  summary(i: number): TrafficSummary {
    const k = i * SUMMARY_PARTS;
    const fault = this.parts.get(k + 5);
    return {
      id: this.firstId + i,
      target: TRAFFIC_TARGETS[this.target[i]!] as TrafficTarget,
      at: this.at[i]!,
      wallAt: this.wallAt[i]!,
      method: this.parts.get(k)!,
      path: this.parts.get(k + 1)!,
      reason: this.parts.get(k + 2),
      status: nullable(this.status[i]!),
      latencyMs: nullable(this.latencyMs[i]!),
      retry: nullable(this.retry[i]!),
      fault: fault === null ? null : (JSON.parse(fault) as FaultHit),
      playerId: this.parts.get(k + 3),
      requestId: this.parts.get(k + 4),
      outcome: OUTCOMES[this.outcome[i]!]!,
    };
  }
}

/** The cut parts as noted; a note that does not read (a torn write) says only that something was cut. */
function cutOf(json: string): TrafficCut {
  try {
    const cut: unknown = JSON.parse(json);
    if (typeof cut === 'object' && cut !== null) return cut as TrafficCut;
  } catch {
    // Fall through: the entry still reads.
  }
  return {};
}

/** A stored segment's detail blob, read. */
export class SegmentDetails {
  private readonly parts: Parts;
  /** Parts per entry: 5 in format 1, which has no notes. */
  private readonly width: number;
  readonly count: number;

  constructor(blob: Uint8Array) {
    const bytes = aligned(blob);
    const { format, count: n } = checkFormat(
      bytes,
      'detail',
      [1, DETAIL_FORMAT],
      (count, format) => detailLayout(count, DETAIL_PARTS_OF[format]).text,
    );
    this.width = DETAIL_PARTS_OF[format]!;
    const d = detailLayout(n, this.width);
    this.count = n;
    const lengths = new Uint32Array(bytes.buffer, bytes.byteOffset + d.lengths, n * this.width);
    this.parts = new Parts(
      lengths,
      Buffer.from(bytes.buffer, bytes.byteOffset + d.text, bytes.byteLength - d.text).toString('utf8'),
    );
  }

  url(i: number): string {
    return this.parts.get(i * this.width)!;
  }

  requestBody(i: number): string | null {
    return this.parts.get(i * this.width + 2);
  }

  /** The entry's own response body (null when it has none, or a shared one). */
  responseBody(i: number): string | null {
    return this.parts.get(i * this.width + 4);
  }

  /** What the entry's notes say; null in a format 1 segment (written before capture masked). */
  notes(i: number): EntryNotes | null {
    if (this.width < DETAIL_PARTS) return null;
    const notes = this.parts.get(i * this.width + 5);
    if (notes === null) return { masked: false, cut: null };
    const masked = notes.startsWith('m');
    const cut = masked ? notes.slice(1) : notes;
    return { masked, cut: cut ? cutOf(cut) : null };
  }

  detail(i: number): SegmentDetail {
    const k = i * this.width;
    return {
      url: this.parts.get(k)!,
      requestHeaders: this.parts.get(k + 1)!,
      requestBody: this.parts.get(k + 2),
      responseHeaders: this.parts.get(k + 3)!,
      responseBody: this.parts.get(k + 4),
    };
  }
}
