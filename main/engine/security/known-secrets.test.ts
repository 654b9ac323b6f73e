/**
 * Secrets found by value (docs/contract/console.md §9): a secret is found wherever it stands in a
 * text, whole or as the parts of a JWT, and nothing shorter than a run is ever held.
 */
import { describe, expect, it } from 'vitest';
import { KnownSecrets, MAX_KNOWN_SECRETS, MIN_SECRET_LENGTH } from './known-secrets.js';

const slices = (text: string, known: KnownSecrets) => known.find(text).map(({ start, end }) => text.slice(start, end));

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
});
