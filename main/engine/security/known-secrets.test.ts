/**
 * Secrets found by value (docs/contract/console.md §9): a secret is found wherever it stands in a
 * text, whole or as the parts of a JWT, and nothing shorter than a run is ever held.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KnownSecrets, MAX_KNOWN_SECRET_CHARS, MAX_KNOWN_SECRETS, MIN_SECRET_LENGTH } from './known-secrets.js';

const slices = (text: string, known: KnownSecrets) => known.find(text).map(({ start, end }) => text.slice(start, end));

/** The runs of a text as the contract defines them, written the plain way: the model `find` is held to. */
function modelRuns(text: string): { start: number; end: number; run: string }[] {
  return [...text.matchAll(/[A-Za-z0-9_-]+/g)]
    .filter((m) => m[0].length >= MIN_SECRET_LENGTH)
    .map((m) => ({ start: m.index, end: m.index + m[0].length, run: m[0] }));
}

/** Texts of runs and what parts them: short and long runs, punctuation, non-ASCII, lone and paired surrogates. */
const piece = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
  fc.constantFrom(' ', '.', '"', '/', ':', '=', '\r\n', 'é', '–', '😀', '\ud800', '\udc00', '\u0141', '\uff41'),
);
const text = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(''));

describe('known secrets', () => {
  it('finds a secret under any name, in a HAR value, a curl line and a path', () => {
    const known = new KnownSecrets();
    const token = 'Zm9vYmFyYmF6cXV4LXRva2VuLTEyMzQ1Njc4';
    known.add(`Bearer ${token}`);
    expect(slices(`{"name":"authorization","value":"Bearer ${token}"}`, known)).toEqual([token]);
    expect(slices(`curl -d 'code_verifier=${token}' https://x`, known)).toEqual([token]);
    expect(slices(`/queues/${token}/v2.3/version`, known)).toEqual([token]);
    // Part of a longer run is another value: not this secret.
    expect(slices(`${token}x`, known)).toEqual([]);
  });

  it('holds each part of a JWT, so each is found', () => {
    const known = new KnownSecrets();
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJpbnRlZ3JhdG9yIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    known.add(`Bearer ${jwt}`);
    expect(slices(`x-auth: ${jwt}`, known)).toEqual(jwt.split('.'));
  });

  it('never holds a value shorter than a run, nor a mask', () => {
    const known = new KnownSecrets();
    known.add('short-secret');
    known.add('abcd•••');
    known.add(`Bearer ${'a'.repeat(MIN_SECRET_LENGTH - 1)}`);
    expect(known.size).toBe(0);
    expect(known.find('short-secret and more')).toEqual([]);
  });

  it('lets the oldest go past its cap, and moves when it learns', () => {
    const known = new KnownSecrets();
    const first = 'first-secret-0000000000';
    known.add(first);
    const version = known.version;
    known.add(first);
    expect(known.version).toBe(version);
    for (let i = 0; i < MAX_KNOWN_SECRETS; i++) known.add(`secret-${String(i).padStart(12, '0')}`);
    expect(known.size).toBe(MAX_KNOWN_SECRETS);
    expect(known.find(first)).toEqual([]);
    expect(known.version).toBeGreaterThan(version);
  });

  it('lets the oldest go past its size in characters too: new long tokens, one a request, stay bounded', () => {
    const known = new KnownSecrets();
    const first = `first-${'a'.repeat(16_000)}`;
    known.add(first);
    // 16 kB tokens (a header's most), each new: far fewer than the cap on their count.
    const made = Math.ceil(MAX_KNOWN_SECRET_CHARS / 16_000) + 10;
    for (let i = 0; i < made; i++) known.add(`tok${String(i).padStart(8, '0')}${'b'.repeat(15_989)}`);
    expect(known.size).toBeLessThan(made);
    expect(known.size * 16_000).toBeLessThanOrEqual(MAX_KNOWN_SECRET_CHARS);
    expect(known.find(first)).toEqual([]);
    // The newest is still found.
    const newest = `tok${String(made - 1).padStart(8, '0')}${'b'.repeat(15_989)}`;
    expect(known.find(`Authorization: Bearer ${newest}`)).toHaveLength(1);
  });

  it('finds exactly the held runs of any text, where the plain model finds them', () => {
    fc.assert(
      fc.property(
        text,
        fc.array(text, { maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (haystack, others, picks) => {
          const known = new KnownSecrets();
          // Some of the haystack's own runs are held (found), and the runs of other texts (mostly not).
          const own = modelRuns(haystack);
          for (const pick of picks) if (own.length > 0) known.add(own[pick % own.length]!.run);
          for (const other of others) known.add(other);
          // What add holds, by the model (the next test holds add to it): every run of every value given.
          const given = [...picks.flatMap((pick) => (own.length > 0 ? [own[pick % own.length]!.run] : [])), ...others];
          const held = new Set(given.filter((v) => !v.includes('•')).flatMap((v) => modelRuns(v).map((r) => r.run)));
          expect(known.find(haystack)).toEqual(
            own.filter((r) => held.has(r.run)).map(({ start, end }) => ({ start, end })),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('holds exactly the runs of what it is given', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 6 }), (values) => {
        const known = new KnownSecrets();
        for (const value of values) known.add(value);
        const runs = new Set(values.filter((v) => !v.includes('•')).flatMap((v) => modelRuns(v).map((r) => r.run)));
        expect(known.size).toBe(runs.size);
        for (const run of runs) expect(slices(` ${run} `, known)).toEqual([run]);
      }),
      { numRuns: 500 },
    );
  });

  describe('held only as a hash (issued before a restart, audit)', () => {
    const token = 'Gx3kP9qR2sT7uV1wX5yZ8aB4cD6eF0gH2iJ4kL6mN8o';
    const other = 'Gx3kP9zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz';
    const sha = (value: string) => createHash('sha256').update(value).digest();

    it('finds the secret whose hash it holds, by its length and first characters, and holds it by value after', () => {
      const known = new KnownSecrets();
      known.addHashed(sha(token), token.length, token.slice(0, 6));
      const moved = known.version;
      expect(slices(`GET /nope/${token}?x=${other}`, known)).toEqual([token]);
      // Found once, it is held as its value: the set knows it, and its version moved (memos start over).
      expect(known.size).toBe(1);
      expect(known.version).toBeGreaterThan(moved);
      expect(slices(`{"theme":"${token}"}`, known)).toEqual([token]);
    });

    it('looks a run up by its first characters in one step, however many are held (review: it looped over each)', () => {
      const known = new KnownSecrets();
      for (let i = 0; i < 20_000; i++) known.addHashed(sha(`${i}`), token.length, `h${String(i).padStart(5, '0')}`);
      // A window of ids as long as a token, none of them held: each run is looked up once.
      const text = Array.from({ length: 1_000 }, (_, i) => `"id":"${`x${i}`.padEnd(token.length, 'y')}"`).join(',');
      const started = performance.now();
      expect(slices(text, known)).toEqual([]);
      expect(performance.now() - started).toBeLessThan(50);
    });

    it('hashes no run of another length or other first characters, and any run of its length where none were kept', () => {
      const known = new KnownSecrets();
      known.addHashed(sha(token), token.length, 'zzzzzz');
      expect(slices(token, known)).toEqual([]);
      expect(slices(`${token}x`, known)).toEqual([]);
      known.addHashed(sha(token), token.length, null);
      expect(slices(`code=${token}`, known)).toEqual([token]);
    });
  });
});
