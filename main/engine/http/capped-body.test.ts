/**
 * Reading a hostile server's answer (docs/contract/console.md §9), against real loopback servers:
 * an endless body stops at the cap and the connection is dropped there; a Content-Length over the
 * cap is refused unread; a body that drips a byte at a time stops when the signal fires; megabytes
 * of nested brackets are refused in one short scan, before any parse.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { bytesText, CUT_TEXT_BYTES, parseJsonWithin, readCappedBody } from './capped-body.js';

const MB = 1_048_576;
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A loopback server whose every answer `answer` writes; `closed` settles when a client drops its connection. */
async function serve(answer: (res: ServerResponse) => void): Promise<{ url: string; closed: Promise<number> }> {
  let dropped!: (written: number) => void;
  const closed = new Promise<number>((resolve) => (dropped = resolve));
  const server = createServer((req, res) => {
    res.on('close', () => dropped(req.socket.bytesWritten));
    answer(res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, closed };
}

/** Writes 64 KB chunks for as long as the client reads them. */
function endless(res: ServerResponse): void {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  res.writeHead(200, { 'content-type': 'application/json' });
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

describe('a capped body read', () => {
  it('reads an answer under the cap whole, as text() would (a BOM dropped, UTF-8 decoded)', async () => {
    const { url } = await serve((res) => res.end('\uFEFF{"name":"Für Elise"}'));
    const read = await readCappedBody(await fetch(url), 1_024);
    expect(read).toEqual({ ok: true, text: '{"name":"Für Elise"}', bytes: 24 });
  });

  it('stops an endless body at the cap and drops the connection there', async () => {
    const { url, closed } = await serve(endless);
    const read = await readCappedBody(await fetch(url), MB);
    expect(read).toMatchObject({
      ok: false,
      bytes: MB,
      message: 'the answer was over 1 MB (1,048,576 bytes) and was cut there',
    });
    // Only its start is decoded to show: the rest of a cut answer is never turned into text.
    expect(read.text).toHaveLength(CUT_TEXT_BYTES);
    // The server learns of it: what it wrote is the cap plus what the socket buffers held, not more.
    expect(await closed).toBeLessThan(8 * MB);
  });

  it('says a compressed answer over the cap was so decoded, small as it was on the wire (audit Z4)', async () => {
    const { url } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(Buffer.alloc(3 * MB, 'a')));
    });
    const read = await readCappedBody(await fetch(url), MB);
    expect(read).toMatchObject({
      ok: false,
      message:
        'the answer was over 1 MB (1,048,576 bytes) and was cut there (as decoded from its gzip Content-Encoding)',
    });
    // One no reader decodes is counted as it came, and not said to be decoded.
    const raw = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' });
      res.end(Buffer.alloc(2 * MB, 'a'));
    });
    expect(await readCappedBody(await fetch(raw.url), MB)).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /^the answer was over 1 MB \(1,048,576 bytes\) and was cut there(?! \(as decoded)/,
      ),
    });
  });

  it('refuses a Content-Length over the cap before reading a byte, naming the size', async () => {
    const { url, closed } = await serve((res) => res.end(Buffer.alloc(3 * MB, 'a')));
    const read = await readCappedBody(await fetch(url), MB);
    expect(read).toEqual({
      ok: false,
      text: '',
      bytes: 0,
      message:
        'the answer was over 1 MB (1,048,576 bytes) and was cut there (its Content-Length said 3 MB (3,145,728 bytes))',
    });
    await closed;
  });

  it('measures an answer that has no stream (an injected fault) and cuts it the same way', async () => {
    const text = 'é'.repeat(1_000);
    const read = await readCappedBody({ headers: new Headers(), text: async () => text }, 1_001);
    expect(read).toMatchObject({
      ok: false,
      bytes: 1_001,
      message: 'the answer was over 1,001 bytes and was cut there (it was 2 KB (2,000 bytes))',
    });
    expect((read as { text: string }).text).toBe(`${'é'.repeat(500)}\uFFFD`);
  });

  it('stops a body that drips a byte every 100 ms when the signal fires, and drops the connection', async () => {
    const abort = new AbortController();
    let sent = 0;
    const { url, closed } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => {
        res.write('[');
        // The client gives up after three bytes: what a deadline or a request timeout does.
        if (++sent === 3) abort.abort(new Error('no complete response within 10 s'));
      }, 100);
      res.on('close', () => clearInterval(timer));
    });
    const started = performance.now();
    await expect(readCappedBody(await fetch(url, { signal: abort.signal }), MB, abort.signal)).rejects.toThrow(
      'no complete response within 10 s',
    );
    expect(performance.now() - started).toBeLessThan(2_000);
    await closed;
    expect(sent).toBeLessThan(6);
  });

  it('stops at the signal even when the stream itself never hears of it', async () => {
    const abort = new AbortController();
    const body = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) });
    const reading = readCappedBody({ headers: new Headers(), body, text: async () => '' }, MB, abort.signal);
    abort.abort(new Error("the run's deadline of 15 s passed"));
    await expect(reading).rejects.toThrow("the run's deadline of 15 s passed");
  });
});

describe('JSON with a depth limit', () => {
  it('refuses 4 MB of nested brackets in milliseconds, before parsing', () => {
    // As a body arrives: one flat string (`repeat` would build a rope that the first read flattens).
    const text = Buffer.alloc(4 * MB, '[').toString();
    const started = performance.now();
    expect(parseJsonWithin(text)).toEqual({
      ok: false,
      message:
        'the answer nests more than 100 JSON arrays and objects inside one another, deeper than the console reads',
    });
    // Milliseconds, on a busy machine too; JSON.parse of it would build 4 million nested arrays, for seconds.
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('parses what nests no deeper than the limit, and says when a text is not JSON', () => {
    expect(parseJsonWithin(`${'['.repeat(100)}${']'.repeat(100)}`).ok).toBe(true);
    expect(parseJsonWithin('{"items":[{"id":"a","track":{"mediaUrl":"x"}}]}')).toEqual({
      ok: true,
      value: { items: [{ id: 'a', track: { mediaUrl: 'x' } }] },
    });
    expect(parseJsonWithin('<html>')).toEqual({ ok: false, message: 'a body that is not JSON' });
  });

  it('names sizes as people read them', () => {
    expect([
      bytesText(1_048_576),
      bytesText(8 * 1_048_576),
      bytesText(10_485_760 + 1),
      bytesText(2_048),
      bytesText(900),
    ]).toEqual([
      '1 MB (1,048,576 bytes)',
      '8 MB (8,388,608 bytes)',
      '10 MB (10,485,761 bytes)',
      '2 KB (2,048 bytes)',
      '900 bytes',
    ]);
  });
});
