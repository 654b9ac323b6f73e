/**
 * Server-sent events for `GET /admin/api/events`: every engine event as `event: <name>` with JSON
 * data, numbered by `id`. A comment line every 15 s keeps proxies and idle timeouts away.
 * `?omit=<name>,<name>` leaves events out (the console's UI leaves out UI_OMITTED_EVENTS).
 */
import type { ServerResponse } from 'node:http';
import type { EngineEvent, EventName } from '../api/events.js';
import type { EventBus } from '../events/bus.js';

const HEARTBEAT_MS = 15_000;

export class EventStreams {
  private readonly open = new Set<() => void>();

  constructor(private readonly bus: Pick<EventBus, 'subscribe'>) {}

  attach(response: ServerResponse, omit: readonly EventName[] = []): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.write('retry: 2000\n: connected\n\n');
    const unsubscribe = this.bus.subscribe((event) => response.write(formatEvent(event)), omit);
    const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const end = (): void => {
      unsubscribe();
      clearInterval(heartbeat);
      this.open.delete(end);
      if (!response.writableEnded) response.end();
    };
    this.open.add(end);
    response.on('close', end);
  }

  /** Ends every open stream, so that closing the server does not wait for browsers. */
  closeAll(): void {
    for (const end of [...this.open]) end();
  }
}

export function formatEvent(event: EngineEvent): string {
  return `id: ${event.seq}\nevent: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
