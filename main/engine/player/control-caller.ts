/**
 * The player panel's command bar talks to the control API over real HTTP with an access token,
 * exactly as an integration would: the same bearer check, the same routes, the same errors, and
 * the calls show up wherever calls show up. The token is the console's own, or (`as`) the current
 * one of an integration's grant the console saw issued (login/console/senders.ts).
 */
import { EngineError } from '../api/errors.js';
import type { EngineClock } from '../clock/clock.js';
import type { ControlExchange, ControlSenderRef } from '../api/commands/player.js';
import type { ControlCaller } from './commands.js';

export interface ControlCallerDeps {
  controlUrl: () => string;
  /** The bearer token to send and whose it is; refuses (throws) a grant it cannot send as. */
  accessToken: (as?: { grantId: string }) => Promise<{ token: string; sentAs: ControlSenderRef }>;
  clock: EngineClock;
}

export function controlCaller({ controlUrl, accessToken, clock }: ControlCallerDeps): ControlCaller {
  return async (method, path, given, as) => {
    // `null` is no body, as an exchange's `requestBody` says it; a GET carries none (fetch threw, 500).
    const body = given === null ? undefined : given;
    if (body !== undefined && method === 'GET')
      throw new EngineError('invalid_input', 'a GET carries no body: leave "body" out, or send it as a POST');
    const url = `${controlUrl()}${path}`;
    const { token, sentAs } = await accessToken(as);
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const startedAt = clock.now();
    const response = await clock.track(
      fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // text/plain answers (401 "Incorrect token") stay text
    }
    const exchange: ControlExchange = {
      method,
      url,
      requestBody: body ?? null,
      status: response.status,
      durationMs: Math.round(clock.now() - startedAt),
      body: parsed,
      sentAs,
    };
    return exchange;
  };
}
