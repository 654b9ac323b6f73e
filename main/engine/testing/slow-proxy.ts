/**
 * A proxy in front of a cloud queue server that holds every player's request (one with an
 * X-Player-Id) `delayMs` of real time before passing it on; a request without one (a fleet's
 * reachability probe) goes through at once. For tests of what a player waits in real time.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlowProxy {
  /** The target's base URL, through the proxy. */
  baseUrl: string;
  close(): Promise<void>;
}

export async function startSlowProxy(targetBaseUrl: string, delayMs: number): Promise<SlowProxy> {
  const target = new URL(targetBaseUrl);
  const proxy: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const wait = request.headers['x-player-id'] ? delayMs : 0;
      const timer = setTimeout(() => {
        const headers = Object.fromEntries(
          Object.entries(request.headers).filter(([k, v]) => typeof v === 'string' && k !== 'host'),
        ) as Record<string, string>;
        fetch(new URL(request.url!, target.origin), {
          method: request.method,
          headers,
          ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
        })
          .then(async (answer) => {
            const body = await answer.text();
            response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
            response.end(body);
          })
          .catch(() => response.destroy());
      }, wait);
      response.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    close: () => {
      proxy.closeAllConnections();
      return new Promise((resolve) => proxy.close(() => resolve()));
    },
  };
}
