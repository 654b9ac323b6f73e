import { describe, expect, it } from 'vitest';
import { Params, withQuery } from './params.js';
import { isWellFormedChallenge, verifierMatches } from './pkce.js';
import { s256 } from './secrets.js';

describe('parameters as received', () => {
  it('keeps repeated parameters visible instead of merging them', () => {
    const params = Params.fromUrl('/x?a=1&b=2&a=3&c=');
    expect(params.repeated()).toEqual(['a']);
    expect(params.single('a')).toBeUndefined();
    expect(params.single('b')).toBe('2');
    expect(params.single('c')).toBeUndefined();
    expect(params.has('c')).toBe(true);
    expect(params.toRecord()).toEqual({ a: ['1', '3'], b: ['2'], c: [''] });
  });

  it('decodes form encoding and never throws on broken escapes', () => {
    expect(Params.parse('x=a+b%20c&y=%zz').toRecord()).toEqual({ x: ['a b c'], y: ['%zz'] });
  });

  it('records names every object has (constructor, __proto__, toString) as parameters like any other', () => {
    const record = Params.parse('constructor=1&__proto__=2&toString=3&toString=4').toRecord();
    expect(Object.entries(record)).toEqual([
      ['constructor', ['1']],
      ['__proto__', ['2']],
      ['toString', ['3', '4']],
    ]);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  });

  it('masks secrets and clips long values in records', () => {
    const record = Params.parse(`code=secretcode&long=${'x'.repeat(600)}`).toRecord(['code'], () => 'hidden');
    expect(record.code).toEqual(['hidden']);
    expect(record.long![0]).toMatch(/… \(600 chars\)$/);
  });
});

describe('redirect URI answers (RFC 6749 §4.1.2)', () => {
  it("appends to the redirect URI's own query, byte for byte", () => {
    expect(withQuery('https://a.example/cb', { code: 'c', state: 's t' })).toBe(
      'https://a.example/cb?code=c&state=s+t',
    );
    expect(withQuery('https://a.example/cb?x=a%20b', { code: 'c' })).toBe('https://a.example/cb?x=a%20b&code=c');
    expect(withQuery('https://a.example/cb?', { code: 'c' })).toBe('https://a.example/cb?code=c');
    expect(withQuery('https://a.example/cb', { error: 'access_denied', state: undefined })).toBe(
      'https://a.example/cb?error=access_denied',
    );
  });
});

describe('PKCE S256 (RFC 7636)', () => {
  it('matches the RFC 7636 appendix B example', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(s256(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifierMatches('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', verifier)).toBe(true);
    expect(verifierMatches('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', `${verifier}x`)).toBe(false);
  });

  it('knows a well-formed challenge', () => {
    expect(isWellFormedChallenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(isWellFormedChallenge('short')).toBe(false);
    expect(isWellFormedChallenge('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw+cM')).toBe(false);
  });
});
