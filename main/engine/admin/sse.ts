/**
 * Server-sent events for `GET /admin/api/events`: every engine event as `event: <name>` with JSON
 * data, numbered by `id`. A comment line every 15 s keeps proxies and idle timeouts away.
 * `?omit=<name>,<name>` leaves events out (the console's UI leaves out UI_OMITTED_EVENTS).
 *
 * A subscriber that falls more than MAX_LAG_BYTES behind is dropped, not buffered for
 * (docs/contract/console.md §9): a reader that stopped reading made the engine keep every event
 * (+155 MB while traffic poured in). It gets a last comment line saying why, and the stream ends;
 * an EventSource connects again by itself.
 */
import type { ServerResponse } from 'node:http';
import type { EngineEvent, EventName } from '../api/events.js';
import type { EventBus } from '../events/bus.js';

const HEARTBEAT_MS = 15_000;
/**
 * Bytes a stream may have waiting for its reader (written, not yet taken by the socket): a
 * console that keeps up holds a few KB; traffic pouring in makes hundreds of KB a second.
 */
export const MAX_LAG_BYTES = 4 * 1024 * 1024;
/** How long a dropped stream's last line may take to leave before its socket is cut. */
const LAST_WORDS_MS = 5_000;

export interface EventStreamOptions {
  /** See MAX_LAG_BYTES (tests set less). */
  maxLagBytes?: number;
}

export class EventStreams {
  private readonly open = new Set<() => void>();
  private readonly maxLagBytes: number;

  constructor(
    private readonly bus: Pick<EventBus, 'subscribe'>,
    { maxLagBytes = MAX_LAG_BYTES }: EventStreamOptions = {},
  ) {
    this.maxLagBytes = maxLagBytes;
  }

  attach(response: ServerResponse, omit: readonly EventName[] = []): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.write('retry: 2000\n: connected\n\n');
    const send = (text: string): void => {
      // write() answers false once the socket holds back; what waits is counted, and past the
      // limit the reader is let go rather than waited for.
      if (response.write(text) || response.writableLength <= this.maxLagBytes) return;
      drop();
    };
    const unsubscribe = this.bus.subscribe((event) => send(formatEvent(event)), omit);
    const heartbeat = setInterval(() => send(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const stop = (): void => {
      unsubscribe();
      clearInterval(heartbeat);
      this.open.delete(end);
    };
    const end = (): void => {
      stop();
      if (!response.writableEnded) response.end();
    };
    const drop = (): void => {
      stop();
      const behind = (response.writableLength / (1024 * 1024)).toFixed(1);
      // The connection goes with the stream once the last line has left (kept alive, it would wait
      // for another request); a reader that never reads again would keep what waits for it, so the
      // socket goes after a while in any case. (The socket, not the response: a finished response
      // has let go of it.)
      const socket = response.socket;
      response.end(
        `: dropped: this stream fell ${behind} MB behind, more than the ${this.maxLagBytes} bytes a reader may; connect again to go on\n\n`,
        () => socket?.end(),
      );
      const cut = setTimeout(() => socket?.destroy(), LAST_WORDS_MS);
      cut.unref();
      socket?.once('close', () => clearTimeout(cut));
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
