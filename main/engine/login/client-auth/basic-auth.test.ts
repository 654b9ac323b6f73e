import { describe, expect, it } from 'vitest';
import { basicHeader, parseBasicHeader } from './basic-auth.js';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('HTTP Basic client authentication (RFC 6749 §2.3.1)', () => {
  it('decodes id and secret, form-urldecoding each after Base64', () => {
    const parsed = parseBasicHeader(`Basic ${b64('my%3Aclient:s%2Bcret+with+space')}`);
    expect(parsed).toMatchObject({
      ok: true,
      credentials: { clientId: 'my:client', clientSecret: 's+cret with space' },
    });
    expect(parsed.report).toMatchObject({ present: true, scheme: 'Basic', clientId: 'my:client', verdict: 'ok' });
    expect(parsed.report.secret).not.toContain('cret with');
  });

  it('round-trips what basicHeader builds, with characters that need encoding', () => {
    const parsed = parseBasicHeader(basicHeader('id:with:colons', 'pa ss+wörd%'));
    expect(parsed).toMatchObject({
      ok: true,
      credentials: { clientId: 'id:with:colons', clientSecret: 'pa ss+wörd%' },
    });
  });

  it('takes the scheme in any case and splits at the first colon only', () => {
    expect(parseBasicHeader(`basic ${b64('id:se:cret')}`)).toMatchObject({
      ok: true,
      credentials: { clientId: 'id', clientSecret: 'se:cret' },
    });
  });

  it.each([
    [undefined, 'missing', /no Authorization header/],
    ['', 'missing', /no Authorization header/],
    ['Bearer abc', 'malformed', /not Basic/],
    ['Basic', 'malformed', /without credentials/],
    ['Basic !!!notbase64', 'malformed', /not valid Base64/],
    ['Basic abc', 'malformed', /not valid Base64/],
    [`Basic ${b64('no-colon')}`, 'malformed', /no colon/],
    [`Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0x41]).toString('base64')}`, 'malformed', /not UTF-8/],
    [`Basic ${b64('id%zz:secret')}`, 'malformed', /client id is not form-urlencoded/],
    [`Basic ${b64('id:sec%')}`, 'malformed', /secret is not form-urlencoded/],
    [`Basic ${b64(':secret')}`, 'malformed', /client id is empty/],
    [`Basic ${b64('id:')}`, 'malformed', /secret is empty/],
  ])('refuses %s (%s)', (header, verdict, problem) => {
    const parsed = parseBasicHeader(header);
    expect(parsed.ok).toBe(false);
    expect(parsed.report.verdict).toBe(verdict);
    expect(parsed.report.problems.join('\n')).toMatch(problem);
  });

  it('warns that an unencoded "+" became a space', () => {
    expect(parseBasicHeader(`Basic ${b64('id:a+b')}`).report.problems.join()).toMatch(/%2B/);
  });
});
