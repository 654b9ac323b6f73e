/**
 * The four listeners of docs/contract/console.md §1: console on P, login on P+1, control on P+2, cloud queue on
 * P+3, all on one loopback host; port 0 lets each take a free port.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceUrls } from '../api/types.js';
import { isLoopbackHostname, urlHost } from './loopback.js';

export const SERVICE_NAMES = [
  'console',
  'login',
  'control',
  'cloudQueue',
] as const satisfies readonly (keyof ServiceUrls)[];
export type ServiceName = (typeof SERVICE_NAMES)[number];
export type ServiceApps = Record<ServiceName, FastifyInstance>;

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 47100;

export async function listenAll(apps: ServiceApps, host: string, port: number): Promise<ServiceUrls> {
  // The console page hands out the admin token to whoever loads it, guarded by its Host header,
  // which a client off this machine can write as it likes: the listeners never leave loopback.
  if (!isLoopbackHostname(host))
    throw new Error(`the console listens on loopback only (127.0.0.1, ::1, localhost), not ${host}`);
  const urls: Partial<ServiceUrls> = {};
  try {
    for (const [index, name] of SERVICE_NAMES.entries()) {
      const wanted = port === 0 ? 0 : port + index;
      try {
        await apps[name].listen({ host, port: wanted });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
          throw new Error(
            `port ${wanted} on ${host} is in use (the ${name} listener needs it); pass --port 0 or another --port`,
            {
              cause: error,
            },
          );
        }
        throw error;
      }
      const address = apps[name].server.address();
      const bound = typeof address === 'object' && address ? address.port : wanted;
      urls[name] = `http://${urlHost(host)}:${bound}`;
    }
  } catch (error) {
    await Promise.allSettled(SERVICE_NAMES.map((name) => apps[name].close()));
    throw error;
  }
  return urls as ServiceUrls;
}

/** The port a listening app is bound to (0 before it listens). */
export function boundPort(app: FastifyInstance): number {
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}
