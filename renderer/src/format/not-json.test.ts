import { describe, expect, it } from 'vitest';
import { notJsonMessage, printable } from './not-json';

const parseError = (text: string): unknown => {
  try {
    JSON.parse(text);
  } catch (error) {
    return error;
  }
  throw new Error('parsed');
};

describe('notJsonMessage', () => {
  it('calls a binary file one, echoing none of its bytes (audit-ui W14)', () => {
    const zip = 'PK\u0003\u0004\u0014\u0000\u0008\u0000\u0008\u0000\ufffd\ufffd';
    const message = notJsonMessage('queue.zip', zip, parseError(zip));
    expect(message).toBe(
      'queue.zip is not JSON: it looks like a binary file (a zip, an image?), not a file the console wrote.',
    );
    expect(message).not.toMatch(/[\p{Cc}\ufffd]/u);
  });

  it("keeps the parser's words for a text file, with any control character escaped", () => {
    expect(notJsonMessage('a.json', '{"items": [', parseError('{"items": ['))).toMatch(/^a\.json is not JSON: \S/);
    expect(notJsonMessage('a.json', 'x', new Error('bad \u0007 here'))).toBe('a.json is not JSON: bad \\u0007 here');
  });

  it('calls UTF-16 text so, and asks for UTF-8', () => {
    // FF FE, then "{}" in UTF-16LE, as UTF-8 decoding reads it.
    const text = Buffer.from([0xff, 0xfe, 0x7b, 0, 0x7d, 0]).toString('utf8');
    expect(notJsonMessage('q.json', text, new Error('x'))).toBe(
      'q.json is not JSON: it is UTF-16 text; save it as UTF-8.',
    );
  });

  it('does not call a broken text binary for a replacement character or two in it', () => {
    const text = '{"name": "a lone surrogate written as \ufffd", "items": [';
    expect(notJsonMessage('b.json', text, parseError(text))).not.toContain('binary');
  });

  it('does not call a text binary for its tabs and line breaks', () => {
    const text = '{\r\n\t"items": [\n';
    expect(notJsonMessage('a.json', text, parseError(text))).not.toContain('binary');
  });

  it('escapes C0 and C1 controls and leaves other characters as they are', () => {
    expect(printable('a\u0000b\u009bc é•')).toBe('a\\u0000b\\u009bc é•');
  });
});
