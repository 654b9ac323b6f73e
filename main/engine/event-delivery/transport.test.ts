/** An event's POST: to any port a receiver listens on, a redirect not followed, the answer read up to a cap. */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpDeliveryTransport, MAX_ANSWER_BYTES } from './transport.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function receiver(handler: RequestListener, port = 0): Promise<string | null> {
  const server = createServer(handler);
  const ok = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (!ok) return null;
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
}

const post = (url: string, signal = new AbortController().signal) =>
  httpDeliveryTransport({
    url,
    headers: { 'content-type': 'application/json', 'x-sonos-type': 'playback' },
    body: '{"playbackState":"PLAYBACK_STATE_PLAYING"}',
    signal,
    requestId: 'r1',
  });

describe('httpDeliveryTransport', () => {
  it('delivers to a receiver on a port fetch blocks, with the body and headers as given', async () => {
    const seen: string[] = [];
    const handler: RequestListener = (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push(`${req.method} ${req.headers['x-sonos-type']} ${body}`);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    };
    let url: string | null = null;
    for (const port of [10080, 6000, 6665, 6666, 6667, 6668, 6669, 5060])
      if ((url = await receiver(handler, port))) break;
    expect(url).not.toBeNull();
    const answer = await post(url!);
    expect(answer).toMatchObject({ status: 200, body: 'ok', headers: { 'content-type': 'text/plain' } });
    expect(seen).toEqual(['POST playback {"playbackState":"PLAYBACK_STATE_PLAYING"}']);
  });

  it('answers a redirect as it came, not followed', async () => {
    const url = (await receiver((_req, res) => res.writeHead(307, { location: '/elsewhere' }).end()))!;
    expect(await post(url)).toMatchObject({ status: 307, headers: { location: '/elsewhere' } });
  });

  it('reads an endless answer up to its cap, and the abort signal ends a silent receiver', async () => {
    const endless = (await receiver((_req, res) => {
      res.writeHead(200);
      const drip = setInterval(() => res.write('x'.repeat(16 * 1024)), 1);
      res.on('close', () => clearInterval(drip));
    }))!;
    expect((await post(endless)).body).toHaveLength(MAX_ANSWER_BYTES);
    const silent = (await receiver(() => undefined))!;
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('no answer within 10 s')), 50);
    await expect(post(silent, abort.signal)).rejects.toThrow('no answer within 10 s');
  });

  it('fails a refused connection with its code as the cause', async () => {
    const url = (await receiver(() => undefined))!;
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const refused = await post(url).catch((error: Error & { cause?: { code?: string } }) => error);
    expect((refused as Error & { cause: { code: string } }).cause.code).toBe('ECONNREFUSED');
  });
});
