/**
 * The floor of playback-24h.bench.ts: the day's exchanges alone, for the bench to time beside the
 * day. Each exchange the player made (its method, path, body, and the answer's status and body, as
 * the traffic log holds them) is sent again, one after another as the player sent them, with
 * node:http over one kept-alive connection (as the player's transport sends them) to a bare
 * fastify server that answers each with what the console answered. Nothing else runs: no engine
 * clock, no player, no capture, no store. What this takes is what any player and server that talk
 * HTTP over loopback spend on the day here, before doing anything with it.
 */
import Fastify from 'fastify';
import { Agent, request } from 'node:http';

export interface Exchange {
  method: string;
  path: string;
  requestBody: string | null;
  status: number;
  responseBody: string | null;
}

export async function replayDay(exchanges: readonly Exchange[]): Promise<{ wallMs: number; cpuMs: number }> {
  let next = 0;
  const app = Fastify({ logger: false });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.all('/*', (_request, reply) => {
    const { status, responseBody } = exchanges[next++]!;
    if (responseBody === null || status === 204) return reply.code(status).send();
    return reply.code(status).type('application/json; charset=utf-8').send(responseBody);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send = ({ method, path, requestBody }: Exchange) =>
    new Promise<void>((resolve, reject) => {
      const body = requestBody === null ? null : Buffer.from(requestBody);
      const outgoing = request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          agent,
          headers: body ? { 'content-type': 'application/json', 'content-length': body.length } : {},
        },
        (incoming) => {
          incoming.on('data', () => {});
          incoming.on('end', resolve);
          incoming.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body ?? undefined);
    });
  try {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    for (const exchange of exchanges) await send(exchange);
    const cpu = process.cpuUsage(cpuBefore);
    return { wallMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 };
  } finally {
    agent.destroy();
    await app.close();
  }
}
