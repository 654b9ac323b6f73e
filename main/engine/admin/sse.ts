/**
 * Server-sent events for `GET /admin/api/events`: every engine event as `event: <name>` with JSON
 * data, numbered by `id`. A comment line every 15 s keeps proxies and idle timeouts away.
 * `?omit=<name>,<name>` leaves events out (the console's UI leaves out UI_OMITTED_EVENTS).
 *
 * A subscriber that falls more than MAX_LAG_BYTES behind is dropped, not buffered for
 * (docs/contract/console.md §9): a reader that stopped reading made the engine keep every event
 * (+155 MB while traffic poured in). It gets a last comment line saying why, and the stream ends;
 * an EventSource connects again by itself. Like any answer, a stream whose reader takes nothing of
 * what waits for 30 s is cut by its listener (http/unread-answers.ts), with no last line: the
 * reader took nothing to read it in. The test is made before a text is written, and the
 * text being written does not count: a stream takes any one event (a player's detail holds
 * whatever window an outside server sent, up to the player's 8 MB cap), and none after it that
 * would put what waits past the limit. An event's text is made once for all streams and handed
 * to each socket a piece at a time (paced-writer.ts): made and written whole for each, ten paused
 * readers of one 15 MB event held ten copies of it (+510 MB of RSS, audit of 4 December 2026).
 */
import type { ServerResponse } from 'node:http';
import type { EngineEvent, EventName } from '../api/events.js';
import type { EventBus } from '../events/bus.js';
import { PacedWriter } from './paced-writer.js';

const HEARTBEAT_MS = 15_000;
/**
 * Bytes a stream may have waiting for its reader beyond the event being written: a console that
 * keeps up holds a few KB; traffic pouring in makes hundreds of KB a second; one player's change
 * can carry 15 MB (its window, up to the player's 8 MB cap, twice), and a load makes two changes
 * in one turn. What waits is the events' shared texts (paced-writer.ts), not a copy per reader, so
 * the limit bounds the memory once, whatever the number of readers (audit: at 4 MB, two such
 * changes in one turn dropped a reader that kept up, the console's own page among them).
 */
export const MAX_LAG_BYTES = 32 * 1024 * 1024;
/** How long a dropped stream's last line may take to leave before its socket is cut. */
const LAST_WORDS_MS = 5_000;

export interface EventStreamOptions {
  /** See MAX_LAG_BYTES (tests set less). */
  maxLagBytes?: number;
}

export class EventStreams {
  private readonly open = new Set<() => void>();
  private readonly maxLagBytes: number;
  /** The event the bus hands every stream in turn, and its text (see `textOf`). */
  private formattedEvent: EngineEvent | null = null;
  private formattedText = '';

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
    const writer = new PacedWriter(response);
    const send = (text: string): void => {
      // What waits for the reader is counted before the text is added to it: past the limit the
      // reader is let go rather than waited for.
      const behind = writer.behind();
      if (behind > 0 && behind + text.length > this.maxLagBytes) return drop(behind + text.length);
      writer.write(text);
    };
    const unsubscribe = this.bus.subscribe((event) => send(this.textOf(event)), omit);
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
    /** `waiting`: what the stream would have held for its reader with the text that was refused. */
    const drop = (waiting: number): void => {
      stop();
      const socket = response.socket;
      // Half an event was sent: a last line after it would read as its end. Without the blank
      // line that ends it the reader never takes it, so the stream is cut where it stands.
      if (writer.midText()) {
        writer.discard();
        return void socket?.destroy();
      }
      const behind = (waiting / (1024 * 1024)).toFixed(1);
      writer.discard();
      // The connection goes with the stream once the last line has left (kept alive, it would wait
      // for another request); a reader that never reads again would keep what waits for it, so the
      // socket goes after a while in any case. (The socket, not the response: a finished response
      // has let go of it.)
      response.end(
        `: dropped: this stream would hold ${behind} MB unread, more than the ${this.maxLagBytes} bytes a reader may fall behind; connect again to go on\n\n`,
        () => socket?.end(),
      );
      const cut = setTimeout(() => socket?.destroy(), LAST_WORDS_MS);
      cut.unref();
      socket?.once('close', () => clearTimeout(cut));
    };
    this.open.add(end);
    response.on('close', end);
  }

  /**
   * The bus hands one event to every stream in turn, synchronously: its text is made for the
   * first and kept until the turn's microtasks run, so that a large event is held once.
   */
  private textOf(event: EngineEvent): string {
    if (event === this.formattedEvent) return this.formattedText;
    if (this.formattedEvent === null) queueMicrotask(() => this.forgetText());
    this.formattedEvent = event;
    this.formattedText = formatEvent(event);
    return this.formattedText;
  }

  private forgetText(): void {
    this.formattedEvent = null;
    this.formattedText = '';
  }

  /** Ends every open stream, so that closing the server does not wait for browsers. */
  closeAll(): void {
    for (const end of [...this.open]) end();
  }
}

export function formatEvent(event: EngineEvent): string {
  return `id: ${event.seq}\nevent: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
