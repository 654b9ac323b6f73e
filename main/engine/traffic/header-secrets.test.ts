/**
 * The line-by-line masking of header blocks (docs/contract/console.md §9): credential lines found
 * by name in any case, repeated ones each masked and held as reads show them, known secrets in any
 * other header, blocks never seen before (a fleet's, each with its own request id) as well as
 * ones remembered, and blocks with odd line breaks as the regular expression reads them.
 */
import { describe, expect, it } from 'vitest';
import { testTrafficEntry } from '../testing/traffic.js';
import { KnownSecrets } from '../security/known-secrets.js';
import { CaptureMasker } from './capture-secrets.js';
import { maskHeaderBlock } from './header-secrets.js';
import { parseHeaderBlock } from './log/header-block.js';

const TOKEN = 'tok-Zm9vYmFyYmF6cXV4LXRva2Vu';

/** What reads show of a masked block with what was held put back. */
const asRead = (masked: { block: string; held: Record<string, string> }) => ({
  ...parseHeaderBlock(masked.block),
  ...masked.held,
});

describe('header blocks masked line by line', () => {
  it('masks a credential in every block of a fleet, none of them seen before, and holds it', () => {
    const masker = new CaptureMasker(new KnownSecrets());
    for (let i = 0; i < 3; i++) {
      const requestHeaders = `accept: application/json\r\nx-player-id: fleet-1-${i}\r\nx-request-id: 1e1f50e8-c411-4883-8f0c-32${i}dcaaab29f\r\nauthorization: Bearer ${TOKEN}\r\nHost: 127.0.0.1:9\r\n`;
      const entry = testTrafficEntry({ requestHeaders });
      masker.mask(entry);
      expect(entry.requestHeaders).not.toContain(TOKEN);
      expect(entry.requestHeaders).toContain('authorization: Bearer tok-•••\r\n');
      expect(entry.requestHeaders).toContain(`x-request-id: 1e1f50e8-c411-4883-8f0c-32${i}dcaaab29f\r\n`);
      expect(entry.held!.requestHeaders).toEqual({ authorization: `Bearer ${TOKEN}` });
    }
  });

  it('masks a known secret in a header of any name, in a block not seen before', () => {
    const masker = new CaptureMasker(new KnownSecrets());
    masker.mask(testTrafficEntry({ requestHeaders: `Authorization: Bearer ${TOKEN}\r\n` }));
    const requestHeaders = `x-request-id: 7e0c9b6a-5d1f-4c5e-9a43-0f1b2c3d4e5f\r\nX-Forwarded-Token: ${TOKEN}\r\nX-Note: short\r\n`;
    const entry = testTrafficEntry({ requestHeaders });
    masker.mask(entry);
    expect(entry.requestHeaders).toBe(
      'x-request-id: 7e0c9b6a-5d1f-4c5e-9a43-0f1b2c3d4e5f\r\nX-Forwarded-Token: tok-•••\r\nX-Note: short\r\n',
    );
    expect(entry.held!.requestHeaders).toEqual({ 'x-forwarded-token': TOKEN });
  });

  it('finds credential names in any case, with blanks before the colon, and no name that only starts like one', () => {
    const block =
      'AUTHORIZATION: Basic Y2xpZW50OnNlY3JldA==\r\nX-API-KEY : key-1234567\r\nPrOxY-AuThOrIzAtIoN:\tBearer proxy-secret-1\r\n' +
      'authorization-hint: keep-me-1234\r\nX-Auth-Token:tok-abcdefgh\r\n';
    const masked = maskHeaderBlock(block)!;
    expect(masked.block).toBe(
      'AUTHORIZATION: Basic Y2xp•••\r\nX-API-KEY : key-•••\r\nPrOxY-AuThOrIzAtIoN:\tBearer prox•••\r\n' +
        'authorization-hint: keep-me-1234\r\nX-Auth-Token:tok-•••\r\n',
    );
    expect(asRead(masked)).toEqual(parseHeaderBlock(block));
    expect(Object.keys(masked.held).sort()).toEqual([
      'authorization',
      'proxy-authorization',
      'x-api-key',
      'x-auth-token',
    ]);
  });

  it('masks every line of a repeated header, and holds their values joined as reads show them', () => {
    const block =
      'HTTP/1.1 200 OK\r\nSet-Cookie: a=1234567\r\nCookie: sid=s3cr3t-1\r\nset-cookie: b=7654321\r\nX-Other: 1\r\nSET-COOKIE : c=abcdefg\r\ncookie: sid=s3cr3t-2\r\n';
    const masked = maskHeaderBlock(block, new KnownSecrets())!;
    for (const secret of ['1234567', '7654321', 'abcdefg', 's3cr3t-1', 's3cr3t-2'])
      expect(masked.block).not.toContain(secret);
    expect(masked.held).toEqual({
      'set-cookie': 'a=1234567, b=7654321, c=abcdefg',
      cookie: 'sid=s3cr3t-1, sid=s3cr3t-2',
    });
    expect(asRead(masked)).toEqual(parseHeaderBlock(block));
  });

  it('reads a block with a lone CR or a line separator as the regular expression does: a line starts after each', () => {
    for (const odd of ['\r', '\u2028']) {
      const block = `X-Note: a${odd}authorization: Bearer ${TOKEN}\r\nHost: x\r\n`;
      const masked = maskHeaderBlock(block, new KnownSecrets())!;
      expect(masked.block).not.toContain(TOKEN);
    }
  });

  it('leaves a block without secrets alone', () => {
    const known = new KnownSecrets();
    known.add(TOKEN);
    expect(maskHeaderBlock('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nDate: x\r\n\r\n', known)).toBeNull();
  });

  it('still masks a token taken again and again once a new secret is known', () => {
    const masker = new CaptureMasker(new KnownSecrets());
    const bearer = `authorization: Bearer ${TOKEN}\r\n`;
    for (let i = 0; i < 3; i++) masker.mask(testTrafficEntry({ requestHeaders: `x-request-id: r${i}\r\n${bearer}` }));
    masker.mask(testTrafficEntry({ responseBody: '{"access_token":"at-another-secret-0123456789"}' }));
    const echoed = testTrafficEntry({ requestHeaders: bearer, responseBody: `{"echo":"${TOKEN}"}` });
    masker.mask(echoed);
    expect(echoed.responseBody).toBe('{"echo":"tok-•••"}');
  });
});
