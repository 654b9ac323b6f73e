import { describe, expect, it } from 'vitest';
import { compareRedirectUri } from './redirect-compare.js';

describe('redirect_uri comparison, character by character', () => {
  it('points at the first differing character of the closest registered URI', () => {
    const result = compareRedirectUri('https://app.example.com/callbak', [
      'https://other.example.com/x',
      'https://app.example.com/callback',
    ]);
    expect(result.closest).toBe('https://app.example.com/callback');
    expect(result.firstDifference).toBe('https://app.example.com/callba'.length);
  });

  it.each([
    ['https://app.example.com/cb/', 'https://app.example.com/cb', /trailing slash/],
    ['http://app.example.com/cb', 'https://app.example.com/cb', /scheme differs: http instead of https/],
    ['https://app.example.com:8443/cb', 'https://app.example.com/cb', /port differs/],
    ['https://app.example.com:443/cb', 'https://app.example.com/cb', /default port/],
    ['https://App.example.com/CB', 'https://app.example.com/cb', /upper\/lower case/],
    ['https%3A%2F%2Fapp.example.com%2Fcb', 'https://app.example.com/cb', /encoded once too often/],
    ['http://localhost:8080/cb', 'http://127.0.0.1:8080/cb', /same machine/],
    ['https://app.example.com/cb?x=2', 'https://app.example.com/cb?x=1', /query differs/],
    [' https://app.example.com/cb', 'https://app.example.com/cb', /spaces/],
  ])('explains %s against %s', (presented, registered, hint) => {
    const result = compareRedirectUri(presented, [registered]);
    expect(result.hints.join('\n')).toMatch(hint);
  });

  it('has nothing to compare against when none is registered', () => {
    expect(compareRedirectUri('https://a.example/cb', [])).toEqual({
      presented: 'https://a.example/cb',
      registered: [],
      closest: null,
      firstDifference: null,
      hints: [],
    });
  });
});
