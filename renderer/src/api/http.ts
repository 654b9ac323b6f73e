/**
 * The browser transport: commands as `POST /admin/api/commands/<name>`, events from the
 * server-sent event stream `GET /admin/api/events`. The stream is read with fetch (EventSource
 * cannot send the admin token) and reconnects with backoff when the engine restarts.
 */
import { createParser } from 'eventsource-parser';
import type { CommandResult } from '@engine-api/bridge';
import { isEngineErrorBody } from '@engine-api/errors';
import { UI_OMITTED_EVENTS, type EngineEvent } from '@engine-api/events';
import { CONSOLE_UI_HEADER } from '@engine-api/traffic-types';
import type { ConnectionState, Transport } from './client';

export interface HttpTransportOptions {
  baseUrl: string;
  adminToken: string;
  fetch?: typeof fetch;
}

const MAX_BACKOFF_MS = 5_000;

export function httpTransport({
  baseUrl,
  adminToken,
  fetch: fetchImpl = fetch.bind(globalThis),
}: HttpTransportOptions): Transport {
  // Marked as the UI's own calls, which the traffic log leaves out (see CONSOLE_UI_HEADER).
  const headers = { authorization: `Bearer ${adminToken}`, [CONSOLE_UI_HEADER]: '1' };
  const listeners = new Set<(event: EngineEvent) => void>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let connection: ConnectionState = 'connecting';
  let stream: AbortController | null = null;

  const setConnection = (state: ConnectionState): void => {
    connection = state;
    for (const listener of connectionListeners) listener(state);
  };

  async function readEvents(signal: AbortSignal): Promise<void> {
    let backoff = 250;
    while (!signal.aborted) {
      try {
        const response = await fetchImpl(`${baseUrl}/admin/api/events?omit=${UI_OMITTED_EVENTS.join(',')}`, {
          headers,
          signal,
        });
        // The console was started again: its key is another, and asking again changes nothing.
        if (response.status === 401) {
          void response.body?.cancel().catch(() => undefined);
          setConnection('restarted');
          return;
        }
        if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
        setConnection('open');
        backoff = 250;
        const parser = createParser({
          onEvent: (message) => {
            if (!message.event) return;
            const event = {
              name: message.event,
              seq: Number(message.id),
              data: JSON.parse(message.data),
            } as EngineEvent;
            for (const listener of listeners) listener(event);
          },
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
      } catch {
        if (signal.aborted) return;
      }
      if (signal.aborted) return;
      setConnection('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, backoff));
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
    }
  }

  return {
    kind: 'http',
    async call(name, input) {
      try {
        const response = await fetchImpl(`${baseUrl}/admin/api/commands/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(input ?? {}),
        });
        const body: unknown = await response.json().catch(() => null);
        if (response.ok) return { ok: true, value: body } as CommandResult<typeof name>;
        const error = (body as { error?: unknown } | null)?.error;
        return {
          ok: false,
          error: isEngineErrorBody(error)
            ? error
            : { code: 'internal', message: `the engine answered ${response.status}` },
        };
      } catch (error) {
        return {
          ok: false,
          error: { code: 'unavailable', message: `the engine cannot be reached: ${(error as Error).message}` },
        };
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      if (!stream) {
        stream = new AbortController();
        void readEvents(stream.signal);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && stream) {
          stream.abort();
          stream = null;
        }
      };
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      listener(connection);
      return () => connectionListeners.delete(listener);
    },
  };
}
