/**
 * A body parsed in turns is what JSON.parse makes of it, accepted and refused alike; the attack:
 * one JSON.parse of 100,000 queue items (30 MB) held every listener 0.45–0.8 s.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sampleTracks } from '../cloud-queue/samples.js';
import { MAX_JSON_VALUES } from '../http/json-depth.js';
import { parseJsonInTurns } from './json-in-turns.js';

/**
 * The longest a turn of the parse may take. Timed with the other timing files, one at a time
 * (vitest.config.ts): beside four other workers a 60 ms turn read 101-130 ms in CI, its CPU time
 * counting the collector's helper threads too.
 */
const TURN_MS = 100;

const turns = { count: 0 };
const between = () => {
  turns.count++;
  return Promise.resolve();
};
/** Small pieces, so that small inputs are split at every level. */
const inPieces = (text: string) => parseJsonInTurns(text, { between, pieceChars: 16 });

async function outcome(parse: () => unknown): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    return { ok: true, value: await parse() };
  } catch {
    return { ok: false };
  }
}

describe('parseJsonInTurns', () => {
  it('makes of any JSON text what JSON.parse makes of it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(undefined, 1, '\t'), async (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(await inPieces(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses what JSON.parse refuses, and accepts what it accepts, of damaged texts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 5 }),
        fc.nat(),
        fc.constantFrom('', ',', ':', '"', '[', ']', '{', '}', ' ', '\\', 'x', '1'),
        async (value, at, insert) => {
          const whole = JSON.stringify(value, null, 1);
          const i = at % (whole.length + 1);
          // Insert a character, or remove one.
          for (const text of [whole.slice(0, i) + insert + whole.slice(i), whole.slice(0, i) + whole.slice(i + 1)]) {
            const expected = await outcome(() => JSON.parse(text));
            const actual = await outcome(() => inPieces(text));
            expect(actual.ok).toBe(expected.ok);
            if (expected.ok && actual.ok) expect(actual.value).toEqual(expected.value);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps keys JSON.parse keeps as own properties, __proto__ among them, and no prototype changes', async () => {
    const text = '{"__proto__": {"polluted": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}, "a": [1, 2, 3, 4, 5, 6, 7, 8, 9]}';
    const parsed = (await inPieces(text)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // As fastify's parser refuses them in a body.
    await expect(parseJsonInTurns(text, { between, pieceChars: 16, forbidPrototypeKeys: true })).rejects.toThrow(
      /prototype/,
    );
    await expect(
      parseJsonInTurns('{"constructor": {"prototype": {"x": [1, 2, 3, 4, 5, 6, 7, 8]}}}', {
        between,
        pieceChars: 16,
        forbidPrototypeKeys: true,
      }),
    ).rejects.toThrow(/prototype/);
  });

  it('parses 100,000 queue items letting the loop go, no turn longer than 100 ms', async () => {
    const text = JSON.stringify({ name: 'Big', items: sampleTracks(1, 100_000).map((track) => ({ track })) });
    const { parsed, longest } = await inTimedTurns(text);
    expect((parsed as { items: unknown[] }).items).toHaveLength(100_000);
    expect(parsed).toEqual(JSON.parse(text));
    expect(longest).toBeLessThan(TURN_MS);
  });

  it('parses a flat array of 1,500,000 small values letting the loop go, no turn longer than 100 ms', async () => {
    // An admin body of `1,1,1,…` (audit): every element's place was put in a list at once, and
    // 10 MB held the listeners 0.7 s, 100 MB took the console down out of memory.
    const text = `{"pad":[${'1,'.repeat(1_499_999)}1]}`;
    const { parsed, longest } = await inTimedTurns(text);
    expect((parsed as { pad: unknown[] }).pad).toHaveLength(1_500_000);
    expect(longest).toBeLessThan(TURN_MS);
  });

  it('refuses a body of more values than any route takes, as it scans, before it parses', async () => {
    const refused = (text: string, maxValues?: number) =>
      parseJsonInTurns(text, { between, maxValues }).then(
        () => null,
        (error: Error & { statusCode?: number }) => [error.statusCode, error.message],
      );
    expect(await refused('[1,2,3,[4,5]]', 7)).toBeNull();
    expect(await refused('[1,2,3,[4,5,6]]', 7)).toEqual([413, expect.stringMatching(/more than 7 JSON values/)]);
    // A comma in a string is no value.
    expect(await refused('{"a":{"b":{}},"c":"x,y,z"}', 5)).toBeNull();
    expect(await refused(`[${'1,'.repeat(MAX_JSON_VALUES)}1]`)).toEqual([413, expect.any(String)]);
  });
});

/** Parses `text` in turns and measures the longest turn. */
async function inTimedTurns(text: string): Promise<{ parsed: unknown; longest: number }> {
  // Each turn's wall time, or the CPU time spent in it when less (other processes share the machine).
  let longest = 0;
  let wall = performance.now();
  let cpu = process.cpuUsage();
  const turn = () => {
    const spent = process.cpuUsage(cpu);
    longest = Math.max(longest, Math.min(performance.now() - wall, (spent.user + spent.system) / 1000));
  };
  const timedBetween = async () => {
    turn();
    await new Promise((resolve) => setImmediate(resolve));
    wall = performance.now();
    cpu = process.cpuUsage();
  };
  const parsed = await parseJsonInTurns(text, { between: timedBetween });
  turn();
  return { parsed, longest };
}
