import { describe, expect, it } from 'vitest';
import { checkRedirectUri } from './redirect-uri.js';

const check = (uri: string, productionParity = false) => checkRedirectUri(uri, { productionParity });

describe('redirect URL rules (docs/contract/platform.md §2.1, docs/contract/console.md §2)', () => {
  it.each([
    'https://app.example.com/callback',
    'https://app.example.com:8443/cb?tenant=a',
    'https://8.8.8.8/cb',
    'https://[2606:4700::1111]/cb',
  ])('accepts the HTTPS, publicly routable %s without a flag', (uri) =>
    expect(check(uri)).toEqual({ ok: true, loopback: false, warning: null }),
  );

  it.each([
    'http://127.0.0.1:8080/cb',
    'http://localhost/cb',
    'http://[::1]:3000/cb',
    'https://localhost/cb',
    'http://127.1.2.3/cb',
    'http://[::ffff:127.0.0.1]/cb',
  ])('accepts the loopback %s, flagged "production would reject this"', (uri) =>
    expect(check(uri)).toEqual({ ok: true, loopback: true, warning: 'production would reject this' }),
  );

  it.each(['http://127.0.0.1:8080/cb', 'http://localhost/cb', 'http://[::1]/cb'])(
    'refuses the loopback %s with production parity on',
    (uri) => {
      expect(check(uri, true)).toEqual({ ok: false, reason: expect.stringContaining('production parity') });
    },
  );

  it.each([
    ['http://app.example.com/cb', /HTTPS/],
    ['myapp://callback', /scheme is myapp.*HTTPS/],
    ['ftp://example.com/cb', /HTTPS/],
    ['https://10.1.2.3/cb', /private address \(10\.0\.0\.0\/8/],
    ['https://172.20.0.1/cb', /private address \(172\.16/],
    ['https://192.168.1.10/cb', /private address \(192\.168/],
    ['https://169.254.169.254/latest', /link-local/],
    ['https://0.0.0.0/cb', /unspecified/],
    ['https://[::]/cb', /unspecified/],
    ['https://[fe80::1]/cb', /link-local/],
    ['https://[fd12:3456::1]/cb', /unique local/],
    ['https://[::ffff:10.0.0.1]/cb', /private address/],
    ['https://100.64.1.1/cb', /carrier-grade NAT/],
    ['https://224.0.0.1/cb', /multicast/],
    ['https://intranet/cb', /single-label/],
    ['https://printer.local/cb', /\.local/],
    ['https://app.internal/cb', /\.internal/],
    ['https://router.home.arpa/cb', /\.home\.arpa/],
    ['https://app.example.com/cb#section', /fragment/],
    ['https://user:pw@app.example.com/cb', /user name or password/],
    ['/relative/callback', /absolute URL/],
    ['', /empty/],
    [' https://app.example.com/cb', /spaces/],
    [`https://app.example.com/${'a'.repeat(2100)}`, /longer than 2048/],
  ])('refuses %s, saying why', (uri, why) => {
    const verdict = check(uri);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.reason).toMatch(why);
  });

  it('reads an IPv4 address written as a plain number the way browsers do', () => {
    // 167772161 is 10.0.0.1.
    expect(check('https://167772161/cb')).toMatchObject({ ok: false, reason: expect.stringContaining('private') });
  });
});
