/** Copy as curl / fetch: safe quoting for a POSIX shell, and secrets masked unless revealed. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlOf, fetchOf, shellQuote } from './curl.js';

/** What a POSIX shell makes of a command line: its words, one per line (`printf` instead of curl). */
function wordsOf(commandLine: string): string[] {
  const out = execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${commandLine.replace(/^curl/, '')}`], {
    encoding: 'utf8',
  });
  return out.split('\0').slice(0, -1);
}

describe('curlOf', () => {
  it('writes a GET as the URL alone, and leaves out the headers a client sets itself', () => {
    expect(
      curlOf({
        method: 'get',
        url: 'http://127.0.0.1:1/api/v1/households',
        headers: { host: 'x', 'content-length': '0', accept: 'application/json' },
      }),
    ).toBe("curl 'http://127.0.0.1:1/api/v1/households' \\\n  -H 'accept: application/json'");
  });

  it('quotes every argument so a shell reads it back exactly: quotes, $, backticks, newlines, ;', () => {
    const nasty = `it's $HOME \`id\` "x" \n; rm -rf / #`;
    const line = curlOf({
      method: 'POST',
      url: `http://h/p?q=${encodeURIComponent(nasty)}&raw=$(id)`,
      headers: { 'x-note': nasty },
      body: nasty,
    });
    expect(wordsOf(line)).toEqual([
      '-X',
      'POST',
      `http://h/p?q=${encodeURIComponent(nasty)}&raw=$(id)`,
      '-H',
      `x-note: ${nasty}`,
      '--data-raw',
      nasty,
    ]);
    expect(shellQuote("'")).toBe(`''\\'''`);
  });

  it('masks credential headers and secret fields of a JSON body, a form and the query, unless revealed', () => {
    const request = {
      method: 'POST',
      url: 'http://h/login/v3/oauth/access?code=abcdefgh1234&state=s1',
      headers: { Authorization: 'Basic dXNlcjpwYXNz', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=CODE123456&redirect_uri=https%3A%2F%2Fa.example%2Fcb&code_verifier=VERIFIER9999',
    };
    const masked = curlOf(request);
    expect(masked).toContain("-H 'Authorization: Basic dXNl•••'");
    expect(masked).toContain('?code=abcd%E2%80%A2%E2%80%A2%E2%80%A2&state=s1');
    expect(masked).toContain(
      'code=CODE%E2%80%A2%E2%80%A2%E2%80%A2&redirect_uri=https%3A%2F%2Fa.example%2Fcb&code_verifier=VERI%E2%80%A2%E2%80%A2%E2%80%A2',
    );
    expect(masked).not.toMatch(/CODE123456|VERIFIER9999|dXNlcjpwYXNz|abcdefgh1234/);
    const revealed = curlOf(request, { reveal: true });
    expect(revealed).toContain('Basic dXNlcjpwYXNz');
    expect(revealed).toContain('code=CODE123456');

    const load = curlOf({
      method: 'POST',
      url: 'http://h/x',
      body: {
        queueBaseUrl: 'http://q/',
        httpAuthorization: 'Bearer queue-token',
        nested: [{ accessToken: 'abcdefgh' }],
      },
    });
    expect(wordsOf(load).at(-1)).toBe(
      '{"queueBaseUrl":"http://q/","httpAuthorization":"Bear•••","nested":[{"accessToken":"abcd•••"}]}',
    );
    expect(wordsOf(load)).toContain('content-type: application/json');
  });

  it('leaves an error code under `code` and an already masked value as they are', () => {
    expect(
      curlOf({ method: 'POST', url: 'http://h', body: '{"error":{"code":"invalid_grant"},"token":"abcd•••"}' }),
    ).toContain('"code":"invalid_grant"');
    expect(curlOf({ method: 'GET', url: 'http://h', headers: { authorization: 'Bearer abcd•••' } })).toContain(
      'Bearer abcd•••',
    );
  });

  it('names the method of a GET that carries a body (a body alone would make curl POST)', () => {
    expect(wordsOf(curlOf({ method: 'GET', url: 'http://h', body: 'x=1' })).slice(0, 2)).toEqual(['-X', 'GET']);
  });
});

describe('fetchOf', () => {
  it('writes a fetch call whose strings are JSON literals, a JSON body through JSON.stringify, secrets masked', () => {
    const code = fetchOf({
      method: 'post',
      url: 'http://h/a?token=secretvalue',
      headers: { authorization: 'Bearer tokentoken' },
      body: '{"password":"hunter22","n":1}',
    });
    expect(code).toContain('await fetch("http://h/a?token=secr%E2%80%A2%E2%80%A2%E2%80%A2", {');
    expect(code).toContain('"authorization": "Bearer toke•••"');
    // A password keeps none of its characters (audit-a 5); a token its first four.
    expect(code).toContain('"password": "•••"');
    expect(code).not.toContain('hunter22');
    // It is JavaScript that runs: the call it makes is the request.
    const calls: unknown[][] = [];
    new Function('fetch', `return (async () => { ${code} })();`)((...args: unknown[]) => calls.push(args));
    expect(calls[0]![0]).toBe('http://h/a?token=secr%E2%80%A2%E2%80%A2%E2%80%A2');
    expect(calls[0]![1]).toEqual({
      method: 'POST',
      headers: { authorization: 'Bearer toke•••' },
      body: '{"password":"•••","n":1}',
    });
  });

  it('keeps a text body as text, and a GET without one bare', () => {
    expect(fetchOf({ method: 'GET', url: 'http://h' })).toBe('await fetch("http://h", {\n  method: "GET",\n});');
    const text = fetchOf({ method: 'POST', url: 'http://h', body: 'a line\nand "another"' });
    expect(text).toContain('body: "a line\\nand \\"another\\"",');
  });
});
