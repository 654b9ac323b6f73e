import { describe, expect, it } from 'vitest';
import { headerBlock, parseHeaderBlock, rawHeaderBlock } from './header-block.js';

describe('header blocks', () => {
  it('are built from fields and from raw request lines, and read back by lower-case name', () => {
    const fromFields = headerBlock({
      'Content-Type': 'application/json',
      'content-length': 12,
      'set-cookie': ['a=1', 'b=2'],
      skipped: undefined,
    });
    expect(fromFields).toBe(
      'Content-Type: application/json\r\ncontent-length: 12\r\nset-cookie: a=1\r\nset-cookie: b=2\r\n',
    );
    expect(parseHeaderBlock(fromFields)).toEqual({
      'content-type': 'application/json',
      'content-length': '12',
      'set-cookie': 'a=1, b=2',
    });
    expect(rawHeaderBlock(['Host', '127.0.0.1:9003', 'X-Player-Id', 'p1'])).toBe(
      'Host: 127.0.0.1:9003\r\nX-Player-Id: p1\r\n',
    );
    expect(headerBlock({})).toBe('');
    expect(parseHeaderBlock('')).toEqual({});
  });

  it('skip a response block’s status line and keep colons inside values', () => {
    const written =
      'HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:9001/cb?code=x\r\nDate: Sat, 21 Nov 2026 05:00:00 GMT\r\n\r\n';
    expect(parseHeaderBlock(written)).toEqual({
      location: 'http://127.0.0.1:9001/cb?code=x',
      date: 'Sat, 21 Nov 2026 05:00:00 GMT',
    });
  });

  it('read a header named like an object property as a header', () => {
    const headers = parseHeaderBlock('constructor: x\r\n__proto__: y\r\n');
    expect(headers.constructor).toBe('x');
    expect(Object.getOwnPropertyDescriptor(headers, '__proto__')?.value).toBe('y');
    expect(JSON.parse(JSON.stringify(headers))).toEqual({ constructor: 'x', ['__proto__']: 'y' });
  });
});
