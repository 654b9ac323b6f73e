/**
 * The renderer's one `api` object. It wraps whichever bridge it was given (IPC in Electron, HTTP
 * and server-sent events in a browser) and turns failed results into `ApiError`s, so features
 * call `api.call('clock.set', { speed: 0 })` and never learn which transport carried it.
 */
import type { EngineBridge } from '@engine-api/bridge';
import type { CommandInput, CommandName, CommandOutput } from '@engine-api/commands';
import type { EngineErrorBody } from '@engine-api/errors';
import type { EngineEvent, EngineEvents, EventName } from '@engine-api/events';

/**
 * `restarted`: the engine answers again but refuses this page's key, which is new at every start
 * of the console: only loading the page again gets the new one.
 */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'restarted';

export class ApiError extends Error {
  readonly code: EngineErrorBody['code'];
  readonly details: unknown;

  constructor(body: EngineErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.code = body.code;
    this.details = body.details;
  }
}

/** A bridge plus what only a remote transport has: a connection that can drop. */
export interface Transport extends EngineBridge {
  readonly kind: 'ipc' | 'http';
  onConnection?(listener: (state: ConnectionState) => void): () => void;
}

export class Api {
  constructor(private readonly transport: Transport) {}

  get kind(): Transport['kind'] {
    return this.transport.kind;
  }

  async call<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>> {
    const result = await this.transport.call(name, input);
    if (!result.ok) throw new ApiError(result.error);
    return result.value;
  }

  subscribe(listener: (event: EngineEvent) => void): () => void {
    return this.transport.subscribe(listener);
  }

  on<N extends EventName>(name: N, listener: (data: EngineEvents[N]) => void): () => void {
    return this.transport.subscribe((event) => {
      if (event.name === name) listener(event.data as EngineEvents[N]);
    });
  }

  onConnection(listener: (state: ConnectionState) => void): () => void {
    if (this.transport.onConnection) return this.transport.onConnection(listener);
    listener('open'); // IPC cannot drop while the window lives
    return () => undefined;
  }
}
