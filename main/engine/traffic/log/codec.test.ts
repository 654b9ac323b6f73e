/**
 * The segment codec, round-tripped with arbitrary exchanges: whatever capture hands over comes
 * back from the two blobs as it went in, but for the one change the format documents (a lone
 * surrogate, which UTF-8 cannot hold, reads back as U+FFFD, unless the part next to it holds its
 * other half: an entry's parts are encoded joined).
 *
 * Env: CODEC_SEED and CODEC_PATH replay a failure (fast-check prints both), CODEC_RUNS widens the
 * search.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FaultHit } from '../../api/fault-types.js';
import { TRAFFIC_TARGETS, type TrafficOutcome } from '../../api/traffic-types.js';
import { PART, SegmentDetails, SegmentSummary, SegmentWriter, type NewTrafficEntry } from './codec.js';

const RUNS = Number(process.env.CODEC_RUNS ?? 300);
const REPLAY = {
  ...(process.env.CODEC_SEED ? { seed: Number(process.env.CODEC_SEED) } : {}),
  ...(process.env.CODEC_PATH ? { path: process.env.CODEC_PATH } : {}),
};

const OUTCOMES: readonly TrafficOutcome[] = ['answered', 'timeout', 'dropped', 'incomplete'];
const REASONS = [
  'load',
  'pause',
  'play',
  'queueCompleted',
  'refresh',
  'resume',
  'skipNext',
  'skipPrev',
  'skipToItem',
  'load+queueCompleted',
  'load queueCompleted',
];

/** Any code point (astral ones too), now and then half a surrogate pair on its own. */
const char = fc.oneof(
  { weight: 30, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)) },
);
/** Text of any kind, the empty string included (short, mostly; a few long enough to grow the writer's text run). */
const text = fc.oneof(
  { weight: 9, arbitrary: fc.string({ unit: char, maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: char, maxLength: 3_000 }) },
);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null, freq: 3 });
/** A stored number: null is kept as -1, so the domain is null or not negative. */
const count = maybe(fc.integer({ min: 0, max: 2 ** 31 - 1 }));

const fault: fc.Arbitrary<FaultHit> = fc.record(
  {
    ruleId: text,
    label: text,
    action: fc.constantFrom<FaultHit['action'][]>('status', 'timeout', 'drop', 'latency', 'malformed'),
    status: fc.integer({ min: 100, max: 599 }),
  },
  { requiredKeys: ['ruleId', 'action'] },
);

const exchange: fc.Arbitrary<NewTrafficEntry> = fc.record({
  target: fc.constantFrom(...TRAFFIC_TARGETS),
  // Any double, NaN, infinities and -0 included: the columns are float64.
  at: fc.double(),
  wallAt: fc.double(),
  method: fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), text),
  url: text,
  path: text,
  reason: maybe(fc.oneof(fc.constantFrom(...REASONS), text)),
  status: count,
  latencyMs: count,
  retry: count,
  fault: maybe(fault),
  playerId: maybe(text),
  requestId: maybe(text),
  outcome: fc.constantFrom(...OUTCOMES),
  requestHeaders: fc.oneof(
    text,
    fc.array(fc.tuple(text, text)).map((lines) => lines.map(([name, value]) => `${name}: ${value}\r\n`).join('')),
  ),
  requestBody: maybe(text),
  responseHeaders: text,
  responseBody: maybe(text),
});

/** An exchange as captured, and the shared body its response names (0: none, the body stays in the entry). */
const captured = fc.tuple(
  exchange,
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 ** 31 - 1 }) },
  ),
);
/** Segments one writer encodes in turn (its buffers are reused), each starting at some id. */
const segments = fc.array(
  fc.record({
    firstId: fc.integer({ min: 1, max: 2 ** 40 }),
    entries: fc.array(captured, { minLength: 1, maxLength: 40 }),
  }),
  { minLength: 1, maxLength: 3 },
);

/** What UTF-8 keeps of a string: each lone surrogate becomes U+FFFD (one UTF-16 unit for one). */
const wellFormed = (value: string) =>
  value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/**
 * An entry's string parts as they read back: encoded as one joined string, so a high surrogate
 * ending one part and a low one starting the next make a pair, and come back as they were.
 */
function readBack(parts: readonly (string | null)[]): (string | null)[] {
  const joined = wellFormed(parts.map((part) => part ?? '').join(''));
  let at = 0;
  return parts.map((part) => (part === null ? null : joined.slice(at, (at += part.length))));
}

/** A blob as SQLite may hand it over: a copy at any byte offset (the decoder must not count on alignment). */
function atOffset(blob: Buffer, offset: number): Uint8Array {
  const copy = new Uint8Array(blob.byteLength + offset);
  copy.set(blob, offset);
  return copy.subarray(offset);
}

describe('the segment codec', () => {
  it(`reads back every exchange it encoded (${RUNS} runs)`, () => {
    fc.assert(
      fc.property(segments, fc.nat({ max: 7 }), (segmentList, offset) => {
        const writer = new SegmentWriter();
        for (const { firstId, entries } of segmentList) {
          for (const [entry, bodyId] of entries) writer.add(entry, bodyId);
          expect(writer.count).toBe(entries.length);
          const { summary: summaryBlob, detail: detailBlob } = writer.encode();
          const summary = new SegmentSummary(firstId, atOffset(summaryBlob, offset));
          const details = new SegmentDetails(atOffset(detailBlob, offset));
          writer.reset();

          expect(summary.count).toBe(entries.length);
          expect(details.count).toBe(entries.length);
          expect(summary.lastId).toBe(firstId + entries.length - 1);
          entries.forEach(([entry, bodyId], i) => {
            // The fault is stored as JSON, which escapes a lone surrogate: it comes back exactly.
            const [method, path, reason, playerId, requestId] = readBack([
              entry.method,
              entry.path,
              entry.reason,
              entry.playerId,
              entry.requestId,
              entry.fault && JSON.stringify(entry.fault),
            ]);
            const { target, at, wallAt, status, latencyMs, retry, fault, outcome } = entry;
            expect(summary.summary(i)).toEqual({
              id: firstId + i,
              target,
              at,
              wallAt,
              method,
              path,
              reason,
              status,
              latencyMs,
              retry,
              fault,
              playerId,
              requestId,
              outcome,
            });
            expect(summary.part(i, PART.reason)).toBe(reason);
            expect(summary.part(i, PART.requestId)).toBe(requestId);
            expect(summary.responseBodyId[i]).toBe(bodyId);
            // A shared body is not kept in the entry: the summary names it.
            const [url, requestHeaders, requestBody, responseHeaders, responseBody] = readBack([
              entry.url,
              entry.requestHeaders,
              entry.requestBody,
              entry.responseHeaders,
              bodyId > 0 ? null : entry.responseBody,
            ]);
            expect(details.detail(i)).toEqual({ url, requestHeaders, requestBody, responseHeaders, responseBody });
            expect(details.url(i)).toBe(url);
            expect(details.requestBody(i)).toBe(requestBody);
            expect(details.responseBody(i)).toBe(responseBody);
          });
        }
      }),
      { numRuns: RUNS, ...REPLAY },
    );
  });
});
