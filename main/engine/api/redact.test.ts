import { describe, expect, it } from 'vitest';
import { redactBody, redactHeaders, redactUrl } from './redact.js';

describe('traffic redaction', () => {
  it('masks credentials in headers and keeps their scheme', () => {
    expect(
      redactHeaders({ Authorization: 'Bearer abcdefghijkl', 'content-type': 'application/json', cookie: 'sid=123456' }),
    ).toEqual({
      Authorization: 'Bearer abcd•••',
      'content-type': 'application/json',
      cookie: 'sid=•••',
    });
  });

  it('masks secrets in JSON bodies at any depth', () => {
    const body = JSON.stringify({
      access_token: 'tok-123456',
      nested: { refresh_token: 'ref-987654', keep: 'me' },
      list: [{ clientSecret: 'shhhhhhh' }],
    });
    expect(JSON.parse(redactBody(body)!)).toEqual({
      access_token: 'tok-•••',
      nested: { refresh_token: 'ref-•••', keep: 'me' },
      list: [{ clientSecret: 'shhh•••' }],
    });
  });

  it('masks secrets in JSON it cannot walk: a body cut at the kept size, malformed, or nested too deep', () => {
    const queue = JSON.stringify({
      id: 'q1',
      accessToken: 'tok-123456',
      httpAuthorization: 'Bearer tok-123456',
      items: Array(50).fill({ id: 'x' }),
    });
    const cut = `${queue.slice(0, 120)}… (999 more characters not kept)`;
    expect(redactBody(cut)).toContain('"accessToken":"tok-•••"');
    expect(redactBody(cut)).not.toContain('123456');
    // Cut inside the secret itself: what is left of it is masked.
    expect(redactBody('{"id":"q1","accessToken":"tok-1234')).toBe('{"id":"q1","accessToken":"tok-•••');
    expect(redactBody('{"code":"abcdef1234… (999 more characters not kept)')).toBe(
      '{"code":"abcd•••… (999 more characters not kept)',
    );
    expect(redactBody('{"code": "a\\"bcdefg", "b": [')).toBe('{"code": "a\\"b•••", "b": [');
    const deep = `{"accessToken":"tok-123456","x":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    expect(redactBody(deep)).not.toContain('123456');
  });

  it('masks secrets in forms, query strings and Location headers', () => {
    expect(redactBody('grant_type=authorization_code&code=abcdef123&redirect_uri=x')).toBe(
      'grant_type=authorization_code&code=abcd%E2%80%A2%E2%80%A2%E2%80%A2&redirect_uri=x',
    );
    expect(redactUrl('https://app.example/cb?code=abcdef123&state=s1')).toBe(
      'https://app.example/cb?code=abcd%E2%80%A2%E2%80%A2%E2%80%A2&state=s1',
    );
    expect(redactHeaders({ location: 'https://app.example/cb?code=zyxwvut&state=1' }).location).toContain('code=zyxw');
  });

  it('leaves other text alone', () => {
    expect(redactBody('plain text')).toBe('plain text');
    expect(redactBody(null)).toBeNull();
    expect(redactBody('{not json')).toBe('{not json');
  });
});
