/**
 * Masking at capture (docs/contract/console.md §9): every kind of secret an exchange carries is
 * masked in the text that is stored, the rest of the text is kept as it came, and what was masked
 * comes back whole from what is held.
 */
import { describe, expect, it } from 'vitest';
import { testTrafficEntry } from '../testing/traffic.js';
import { KnownSecrets } from '../security/known-secrets.js';
import { CaptureMasker, maskBody, maskEntry, maskHeaderBlock, maskUrl } from './capture-secrets.js';
import { parseHeaderBlock } from './log/header-block.js';
import { spliceBack } from './log/held.js';

/** The text as it came, from the stored one and what was held. */
const roundTrip = (masked: ReturnType<typeof maskUrl>) => spliceBack(masked!.text, masked!.splices);

describe('masking at capture', () => {
  it('masks query parameters named like secrets, in any case, escaped names too', () => {
    const url =
      'http://127.0.0.1:9003/queues/q/v2.3/version?token=tok-123456&api_key=key-123456&apikey=key-abcdef&access_token=at-9876543&code=c0de-1234&API_KEY=KEY-999999&client%5Fsecret=cs-777777&reason=load#frag=1';
    const masked = maskUrl(url)!;
    for (const secret of [
      'tok-123456',
      'key-123456',
      'key-abcdef',
      'at-9876543',
      'c0de-1234',
      'KEY-999999',
      'cs-777777',
    ])
      expect(masked.text).not.toContain(secret);
    expect(masked.text).toContain('token=tok-%E2%80%A2%E2%80%A2%E2%80%A2');
    expect(masked.text).toContain('&reason=load#frag=1');
    expect(roundTrip(masked)).toBe(url);
    expect(maskUrl('http://127.0.0.1:9003/queues/q/v2.3/itemWindow?reason=load')).toBeNull();
  });

  it('masks credentials and API keys in headers, keeps the scheme, and holds them as reads show them', () => {
    const block =
      'Host: x\r\nAuthorization: Bearer abcdefghijkl\r\nX-Api-Key: key-1234567\r\nCookie: sid=s3cr3t-value\r\nX-Player-Id: p1\r\nSet-Cookie: a=1234567\r\nset-cookie: b=7654321\r\n';
    const { block: masked, held } = maskHeaderBlock(block)!;
    expect(masked).toBe(
      'Host: x\r\nAuthorization: Bearer abcd•••\r\nX-Api-Key: key-•••\r\nCookie: sid=•••\r\nX-Player-Id: p1\r\nSet-Cookie: a=12•••\r\nset-cookie: b=76•••\r\n',
    );
    expect({ ...parseHeaderBlock(masked), ...held }).toEqual(parseHeaderBlock(block));
    expect(maskHeaderBlock('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n')).toBeNull();
  });

  it('masks the secret parameters of a Location header, and leaves one without them alone', () => {
    const block = 'HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:9/callback?code=abcdef123456&state=s1\r\n';
    const { block: masked, held } = maskHeaderBlock(block)!;
    expect(masked).not.toContain('abcdef123456');
    expect(held).toEqual({ location: 'http://127.0.0.1:9/callback?code=abcdef123456&state=s1' });
    expect(maskHeaderBlock('HTTP/1.1 302 Found\r\nlocation: /login?state=1\r\n')).toBeNull();
  });

  it('masks secret fields of JSON at any depth, keeping the text as it came (and valid JSON), error codes left alone', () => {
    const body =
      '{ "client_secret": "supersecret",\n  "nested": {"refresh_token":"rt-1234567", "keep": "me"}, "list": [{"clientSecret": "sh\\"hhhhh"}], "error": {"code": "not_found"}, "Token": "t0k3n-value" }';
    const masked = maskBody(body)!;
    expect(masked.text).toBe(
      '{ "client_secret": "supe•••",\n  "nested": {"refresh_token":"rt-1•••", "keep": "me"}, "list": [{"clientSecret": "sh\\"h•••"}], "error": {"code": "not_found"}, "Token": "t0k3•••" }',
    );
    expect(JSON.parse(masked.text)).toMatchObject({ nested: { keep: 'me' } });
    expect(roundTrip(masked)).toBe(body);
  });

  it('masks a JSON body cut inside a secret, and the secret fields of a form', () => {
    expect(maskBody('{"id":"q1","accessToken":"tok-1234')!.text).toBe('{"id":"q1","accessToken":"tok-•••');
    const form = 'grant_type=refresh_token&refresh_token=rt-abcdefgh&code_verifier=v3r1f13r-xyz&password=hunter22';
    const masked = maskBody(form)!;
    for (const secret of ['rt-abcdefgh', 'v3r1f13r-xyz', 'hunter22']) expect(masked.text).not.toContain(secret);
    expect(masked.text.startsWith('grant_type=refresh_token&refresh_token=rt-a')).toBe(true);
    expect(roundTrip(masked)).toBe(form);
    expect(maskBody('plain text with a token in it')).toBeNull();
  });

  it('masks an entry in place and notes what it holds; one without secrets is left as it was', () => {
    const entry = testTrafficEntry({
      url: 'http://127.0.0.1:9003/q?token=abcdefgh',
      requestHeaders: 'Authorization: Basic Y2xpZW50OnNlY3JldA==\r\n',
      requestBody: 'code=AbCdEf123&grant_type=authorization_code',
      responseBody: '{"access_token":"at-12345678","token_type":"Bearer"}',
    });
    maskEntry(entry);
    const { held, ...stored } = entry;
    expect(stored.masked).toBe(true);
    // What is encoded (everything but `held`, which stays in memory) holds none of them.
    expect(JSON.stringify(stored)).not.toMatch(/abcdefgh|Y2xpZW50OnNlY3JldA==|AbCdEf123|at-12345678/);
    expect(Object.keys(held!).sort()).toEqual(['requestBody', 'requestHeaders', 'responseBody', 'url']);
    const plain = testTrafficEntry({ url: 'http://127.0.0.1:9003/q?reason=load', responseBody: '{"items":[]}' });
    maskEntry(plain);
    expect(plain.masked).toBeUndefined();
    expect(plain.held).toBeUndefined();
  });
});

describe('masking by value at capture', () => {
  it('masks a secret it learned by name wherever it appears later: a HAR value, a curl line, a header of any name', () => {
    const masker = new CaptureMasker(new KnownSecrets());
    const token = 'at-Zm9vYmFyYmF6cXV4LXRva2Vu';
    const issued = testTrafficEntry({ responseBody: `{"access_token":"${token}","token_type":"Bearer"}` });
    masker.mask(issued);
    expect(issued.responseBody).not.toContain(token);

    const exported = testTrafficEntry({
      requestHeaders: `X-Forwarded-Token: ${token}\r\nHost: x\r\n`,
      responseBody: JSON.stringify({
        har: { entries: [{ request: { headers: [{ name: 'Authorization', value: `Bearer ${token}` }] } }] },
        curl: `curl -H 'Authorization: Bearer ${token}'`,
      }),
    });
    const before = { requestHeaders: exported.requestHeaders, responseBody: exported.responseBody };
    masker.mask(exported);
    expect(JSON.stringify({ ...exported, held: undefined })).not.toContain(token);
    expect(exported.requestHeaders).toBe('X-Forwarded-Token: at-Z•••\r\nHost: x\r\n');
    expect(JSON.parse(exported.responseBody!)).toMatchObject({ curl: "curl -H 'Authorization: Bearer at-Z•••'" });
    // What was masked comes back whole.
    expect(spliceBack(exported.responseBody!, exported.held!.responseBody!)).toBe(before.responseBody);
    expect({ ...parseHeaderBlock(exported.requestHeaders), ...exported.held!.requestHeaders }).toEqual(
      parseHeaderBlock(before.requestHeaders),
    );
  });

  it('masks a secret by value in the same entry it was learned in, and in its URL', () => {
    const known = new KnownSecrets();
    const code = 'c0de-Zm9vYmFyYmF6cXV4';
    const entry = testTrafficEntry({
      url: `http://127.0.0.1:9/cb/${code}`,
      responseBody: `{"code":"${code}","echo":"${code}"}`,
    });
    maskEntry(entry, known);
    expect(entry.url).not.toContain(code);
    expect(entry.responseBody).toBe('{"code":"c0de•••","echo":"c0de•••"}');
    expect(spliceBack(entry.url, entry.held!.url!)).toBe(`http://127.0.0.1:9/cb/${code}`);
  });

  it("(audit) masks a known secret sent as a path segment in the entry's path too, as in its URL", () => {
    const known = new KnownSecrets();
    const token = 'KnHFG-R0Hhtmspgn363EKK-b-nkUWCPhkoIp4WWRYW4';
    known.add(token);
    const entry = testTrafficEntry({
      url: `http://127.0.0.1:9/admin/api/queues/${token}?x=1`,
      path: `/admin/api/queues/${token}`,
    });
    maskEntry(entry, known);
    expect(entry.url).not.toContain(token);
    expect(entry.path).not.toContain(token);
    expect(entry.path).toMatch(/^\/admin\/api\/queues\/\S+•••$/);
    // A path with no secret is left as it came.
    const clean = testTrafficEntry({ url: 'http://127.0.0.1:9/q/itemWindow?reason=load', path: '/q/itemWindow' });
    maskEntry(clean, known);
    expect(clean.path).toBe('/q/itemWindow');
  });

  // A cached window's first answer is read from the store, every later one is the cache's: the
  // same text in another string, which the masker holds again as the string of that later look.
  it.each([
    ['the same string', (text: string) => text],
    ['another string of the same text', (text: string) => Buffer.from(text).toString()],
  ])('finds a body clean again in %s, and reads it again once a secret in it is known', (_, later) => {
    const masker = new CaptureMasker(new KnownSecrets());
    const secret = 'later-known-0123456789abcdef';
    const text = `{"note":"${secret}","pad":"${'p'.repeat(600)}"}`;
    const first = testTrafficEntry({ responseBody: text });
    masker.mask(first);
    expect(first.responseBody).toBe(text);
    const body = later(text);
    for (let i = 0; i < 3; i++) {
      const again = testTrafficEntry({ responseBody: body });
      masker.mask(again);
      expect(again.responseBody).toBe(text);
      expect(again.masked).toBeFalsy();
    }
    masker.known.add(secret);
    const known = testTrafficEntry({ responseBody: body });
    masker.mask(known);
    expect(known.responseBody).not.toContain(secret);
    expect(spliceBack(known.responseBody!, known.held!.responseBody!)).toBe(text);
  });

  it('masks a header block it masked lately anew once a secret it holds is known, in a later entry or the same one', () => {
    const masker = new CaptureMasker(new KnownSecrets());
    const secret = 'hdr-later-known-0123456789';
    const block = `Host: x\r\nX-Note: ${secret}\r\n`;
    const bearer = 'Authorization: Bearer tok-remembered-0123456789\r\n';
    const first = testTrafficEntry({ requestHeaders: block + bearer });
    masker.mask(first);
    expect(first.requestHeaders).toBe('Host: x\r\nX-Note: ' + secret + '\r\nAuthorization: Bearer tok-•••\r\n');
    // The same block again: the same answer, held as reads show it.
    const again = testTrafficEntry({ requestHeaders: block + bearer });
    masker.mask(again);
    expect([again.requestHeaders, again.held!.requestHeaders]).toEqual([
      first.requestHeaders,
      { authorization: 'Bearer tok-remembered-0123456789' },
    ]);
    // Its own response teaches the secret: the block remembered is read again, in this entry.
    const taught = testTrafficEntry({
      requestHeaders: block + bearer,
      responseBody: `{"access_token":"${secret}"}`,
    });
    masker.mask(taught);
    expect(taught.requestHeaders).not.toContain(secret);
    expect(taught.held!.requestHeaders).toEqual({
      'x-note': secret,
      authorization: 'Bearer tok-remembered-0123456789',
    });
    const later = testTrafficEntry({ requestHeaders: block });
    masker.mask(later);
    expect(later.requestHeaders).not.toContain(secret);
  });

  it('masks a URL it masked lately anew once a secret it holds is known, in a later entry or the same one', () => {
    const masker = new CaptureMasker(new KnownSecrets());
    const secret = 'url-later-known-0123456789';
    const url = `http://127.0.0.1:9/queues/q1/v2.3/itemWindow?itemId=${secret}&access_token=tok-in-url-0123456789`;
    const first = testTrafficEntry({ url });
    masker.mask(first);
    expect(first.url).toBe(`${url.slice(0, url.indexOf('tok-'))}tok-${encodeURIComponent('•••')}`);
    // The same URL again: the same answer, and what was masked comes back whole.
    const again = testTrafficEntry({ url });
    masker.mask(again);
    expect(again.url).toBe(first.url);
    expect(spliceBack(again.url, again.held!.url!)).toBe(url);
    // Its own response teaches the secret: the URL remembered is read again, in this entry.
    const taught = testTrafficEntry({ url, responseBody: `{"access_token":"${secret}"}` });
    masker.mask(taught);
    expect(taught.url).not.toContain(secret);
    expect(spliceBack(taught.url, taught.held!.url!)).toBe(url);
    // And in a later entry, whose URL was remembered clean before the secret was known.
    const clean = `http://127.0.0.1:9/queues/q1/v2.3/version?note=${secret}`;
    const other = new CaptureMasker(new KnownSecrets());
    const before = testTrafficEntry({ url: clean });
    other.mask(before);
    expect(before.url).toBe(clean);
    other.known.add(secret);
    const after = testTrafficEntry({ url: clean });
    other.mask(after);
    expect(after.url).not.toContain(secret);
  });

  it('lets go of every URL and block it remembered once a secret is known, though another entry was masked first', () => {
    const masker = new CaptureMasker(new KnownSecrets());
    const secret = 'remembered-then-known-0123456789';
    const parts = {
      url: `http://127.0.0.1:9/queues/q1/v2.3/version?note=${secret}`,
      requestHeaders: `Host: x\r\nX-Note: ${secret}\r\n`,
      responseHeaders: `HTTP/1.1 200 OK\r\nX-Echo: ${secret}\r\n`,
    };
    // Remembered clean: nothing in them is known yet.
    const before = testTrafficEntry(parts);
    masker.mask(before);
    expect(before.masked).toBeFalsy();
    masker.known.add(secret);
    // Another entry first, with other parts: the memories catch up with the secrets known here.
    masker.mask(
      testTrafficEntry({
        url: 'http://127.0.0.1:9/other',
        requestHeaders: 'Host: y\r\n',
        responseHeaders: 'HTTP/1.1 204 No Content\r\n',
      }),
    );
    const after = testTrafficEntry(parts);
    masker.mask(after);
    expect(after.url).not.toContain(secret);
    expect(after.requestHeaders).not.toContain(secret);
    expect(after.responseHeaders).not.toContain(secret);
  });

  it('gives the entries whose only secret is the same request block one held object, and the others their own', () => {
    const masker = new CaptureMasker(new KnownSecrets());
    const bearer = 'Host: x\r\nAuthorization: Bearer tok-shared-0123456789\r\n';
    const [first, second, third] = [
      testTrafficEntry({ requestHeaders: bearer }),
      testTrafficEntry({ requestHeaders: bearer }),
      testTrafficEntry({ requestHeaders: bearer }),
    ];
    masker.mask(first);
    masker.mask(second);
    masker.mask(third);
    // Held for the newest 20,000 entries: one object for all those that found the block masked
    // before, not one each (log/held.ts). The first masked it: a block that may never come again
    // (a fleet's, each with its own X-Request-Id) is not remembered for sharing.
    expect(third.held).toBe(second.held);
    expect(first.held).not.toBe(second.held);
    expect(first.held).toEqual(second.held);
    expect(first.held).toEqual({ requestHeaders: { authorization: 'Bearer tok-shared-0123456789' } });
    // An entry that also holds another part (a secret in its URL) has its own, whole.
    const withUrl = testTrafficEntry({ requestHeaders: bearer, url: 'http://x/cb?code=code-0123456789abcdef' });
    masker.mask(withUrl);
    expect(withUrl.held).not.toBe(first.held);
    expect(withUrl.held!.requestHeaders).toEqual(first.held!.requestHeaders);
    expect(withUrl.held!.url).toHaveLength(1);
    // Another token is another block: its own held object, with its own value.
    const other = testTrafficEntry({ requestHeaders: 'Host: x\r\nAuthorization: Bearer tok-other-0123456789\r\n' });
    masker.mask(other);
    expect(other.held).toEqual({ requestHeaders: { authorization: 'Bearer tok-other-0123456789' } });
    expect(first.held).toEqual({ requestHeaders: { authorization: 'Bearer tok-shared-0123456789' } });
  });

  it('holds a masked header as reads show it: repeated lines joined, whatever their case', () => {
    const block = 'HTTP/1.1 200 OK\r\nSet-Cookie: a=1234567\r\nX-Other: 1\r\nSET-COOKIE : b=7654321\r\n';
    expect(maskHeaderBlock(block)!.held).toEqual({ 'set-cookie': parseHeaderBlock(block)['set-cookie'] });
  });
});
