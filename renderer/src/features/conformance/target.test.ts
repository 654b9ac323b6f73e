import { describe, expect, it } from 'vitest';
import { checkAuthorization, checkBaseUrl } from './target';

describe('the server to check, before it is sent', () => {
  it('takes an absolute http(s) URL, trimmed', () => {
    expect(checkBaseUrl('  https://queue.example.com/v2.3/ ')).toEqual({
      ok: true,
      value: 'https://queue.example.com/v2.3/',
    });
    expect(checkBaseUrl('HTTP://127.0.0.1:4100/queues/q1/v2.3')).toEqual({
      ok: true,
      value: 'HTTP://127.0.0.1:4100/queues/q1/v2.3',
    });
  });

  it.each([
    ['', /Enter the server’s base URL/],
    ['queue.example.com/v2.3', /not a whole URL: write it starting with https:\/\/ or http:\/\//],
    ['localhost:8080/v2.3', /not a whole URL/],
    ['http:/queue.example.com', /not a whole URL/],
    ['ftp://queue.example.com/', /must start with https:\/\/ or http:\/\/, not ftp:\/\//],
    ['http://exa mple.com/', /is not a URL/],
    ['https://user:secret@queue.example.com/', /must not carry a user name or password/],
    [`https://q.example.com/${'a'.repeat(2_100)}`, /at most 2,048/],
  ])('refuses %j, saying why', (text, message) => {
    const checked = checkBaseUrl(text);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.message).toMatch(message);
  });

  it('takes an empty Authorization as none, and refuses one that cannot be a header', () => {
    expect(checkAuthorization('  ')).toEqual({ ok: true, value: undefined });
    expect(checkAuthorization(' Bearer abc ')).toEqual({ ok: true, value: 'Bearer abc' });
    expect(checkAuthorization('Bearer a\nb')).toMatchObject({ ok: false, message: expect.stringMatching(/one line/) });
    expect(checkAuthorization('Bearer 🔑')).toMatchObject({ ok: false });
    expect(checkAuthorization(`Bearer ${'x'.repeat(8_200)}`)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/at most 8,192/),
    });
  });
});
