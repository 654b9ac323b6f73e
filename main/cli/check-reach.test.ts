/**
 * `check` says "cannot reach" (exit 2) only of a server that is not there. A server on a port
 * browsers block (fetch's "bad port" list: 6000, 10080, …) is there; so is one that answers with
 * what no HTTP client reads (80 KB of headers, a redirect loop): its cases fail and say why (exit 1).
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../testing/cli.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Listens on loopback, on `port` (0 for any); null when that port is taken on this machine. */
async function listen(handler: RequestListener, port = 0): Promise<string | null> {
  // The server itself may send headers of any size; the limit under test is the client's.
  const server = createServer({ maxHeaderSize: 256 * 1024 }, handler);
  const ok = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (!ok) return null;
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/queues/q1/v2.3/`;
}

/** Ports the Fetch standard blocks: a fetch-based client cannot call them at all. */
const BLOCKED_PORTS = [10080, 6000, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 4190, 5060, 5061];

describe('check reaches every server that is there', () => {
  it('a server on a port fetch blocks is judged, not called unreachable', async () => {
    let baseUrl: string | null = null;
    for (const port of BLOCKED_PORTS) {
      baseUrl = await listen((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<p>no</p>'), port);
      if (baseUrl) break;
    }
    expect(baseUrl, 'every blocked port is taken on this machine').not.toBeNull();
    const { code, stderr } = await runCli('check', baseUrl!, '--timeout', '20');
    // It answered (404 pages): a base URL with no queue at it, which is not "cannot reach".
    expect(code).toBe(2);
    expect(stderr).toMatch(/is not a cloud queue's base URL: GET context answered 404 with a web page/);
    expect(stderr).not.toMatch(/cannot reach|bad port/);
  });

  it.each([
    [
      '80 KB of headers',
      ((_req, res) => res.writeHead(200, { 'x-big': 'a'.repeat(80_000) }).end('{}')) as RequestListener,
      /got an answer it cannot read: the server answered with headers over 16 KB, more than an HTTP client reads \(HPE_HEADER_OVERFLOW\)/,
    ],
    [
      'a redirect loop',
      ((req, res) => res.writeHead(302, { location: req.url }).end()) as RequestListener,
      /got an answer it cannot read: the server redirected the request more than 20 times \(a redirect loop\?\)/,
    ],
    // Said "cannot reach: connection failed: unsupported protocol file:", exit 2 (audit).
    [
      'a redirect to a file: URL',
      ((_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end()) as RequestListener,
      /got an answer it cannot read: the server answered 302 redirecting to "file:\/\/\/etc\/passwd", a URL no player follows/,
    ],
    [
      'a redirect to no URL at all',
      ((_req, res) => res.writeHead(307, { location: 'http://[::1' }).end()) as RequestListener,
      /the server answered 307 redirecting to "http:\/\/\[::1", a URL no player follows/,
    ],
  ])(
    'a server that answers with %s: its cases fail saying so (exit 1), not "cannot reach"',
    async (_what, handler, said) => {
      const baseUrl = (await listen(handler))!;
      const { code, stdout, stderr } = await runCli('check', baseUrl, '--timeout', '20');
      expect(code, stderr).toBe(1);
      expect(stderr).not.toMatch(/cannot reach/);
      const context = stdout.split('\n').find((line) => / context: /.test(line));
      expect(context).toMatch(/^FAIL/);
      expect(context).toMatch(said);
    },
  );
});

describe('check judges a server whose answer begins as HTTP and then breaks it (audit)', () => {
  it.each([
    [
      'a status line without a status',
      'HTTP/1.1 abc\r\n\r\n',
      /HPE_INVALID_STATUS: a status line without a three-digit status/,
    ],
    [
      'a header line that is no header',
      'HTTP/1.1 200 OK\r\nthis is not a header\r\n\r\n{}',
      /HPE_INVALID_HEADER_TOKEN: a header line that is not a name and a value/,
    ],
    // Said once as "beside chunked encoding", with no chunked encoding in the answer (audit).
    [
      'two Content-Lengths',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 30\r\n\r\n{}',
      /HPE_UNEXPECTED_CONTENT_LENGTH: Content-Length given twice\)/,
    ],
    [
      'a Transfer-Encoding after a Content-Length',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      /HPE_INVALID_TRANSFER_ENCODING: a Transfer-Encoding beside Content-Length/,
    ],
  ])('%s: its cases fail saying so (exit 1), not "cannot reach"', async (_what, answer, said) => {
    const server = createNetServer((socket) => socket.on('data', () => socket.end(answer)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const { code, stdout, stderr } = await runCli(
        'check',
        `http://127.0.0.1:${port}/queues/q1/v2.3/`,
        '--timeout',
        '20',
      );
      expect(code, stderr).toBe(1);
      expect(stderr).not.toMatch(/cannot reach/);
      const context = stdout.split('\n').find((line) => / context: /.test(line));
      expect(context).toMatch(/^FAIL/);
      expect(context).toMatch(/the server's answer began as HTTP and then broke its rules, which no HTTP client reads/);
      expect(context).toMatch(said);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('check judges a server whose status line came and whose headers never end (audit)', () => {
  it('its cases fail saying how much came (exit 1), not "cannot reach"', async () => {
    const trickles: NodeJS.Timeout[] = [];
    const server = createNetServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\n');
        trickles.push(setInterval(() => socket.write('x-more: 1\r\n'), 200));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      // A player's 10 s give up the context's request; the run's deadline ends the rest (idle time).
      const { code, stdout, stderr } = await runCli('check', `http://127.0.0.1:${port}/q/`, '--timeout', '12');
      expect(code, stderr).toBe(1);
      expect(stderr).not.toMatch(/cannot reach/);
      const context = stdout.split('\n').find((line) => / context: /.test(line));
      expect(context).toMatch(/^FAIL/);
      expect(context).toMatch(/\d+ bytes of its answer came; its status line and headers did not end/);
    } finally {
      trickles.forEach(clearInterval);
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('check says why it cannot reach a server that speaks no HTTP', () => {
  it('bytes that are not HTTP (a TLS server asked over http://): exit 2, saying so', async () => {
    const server = createNetServer((socket) => socket.once('data', () => socket.end('\x15\x03\x01\x00\x02\x02\x50')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const { code, stderr } = await runCli('check', `http://127.0.0.1:${port}/queues/q1/v2.3/`, '--timeout', '20');
      expect(code).toBe(2);
      expect(stderr).toMatch(
        /cannot reach the cloud queue server at .*: connection failed: what came back is not HTTP \(HPE_\w+\); an https server asked over http:\/\/\?/,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('an https:// URL to a plain HTTP server: exit 2, with the likely cause', async () => {
    const baseUrl = (await listen((_req, res) => res.writeHead(404).end()))!;
    const { code, stderr } = await runCli('check', baseUrl.replace('http:', 'https:'), '--timeout', '20');
    expect(code).toBe(2);
    expect(stderr).toMatch(/connection failed: \w+ \(no TLS there: an http server asked over https:\/\/\?\)/);
  });
});
