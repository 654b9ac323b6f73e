/**
 * The player panel's command bar talks to the control API over real HTTP with an access token the
 * console holds for itself, exactly as an integration would: the same bearer check, the same
 * routes, the same errors, and the calls show up wherever calls show up.
 */
import type { EngineClock } from '../clock/clock.js';
import type { ControlExchange } from '../api/commands/player.js';
import type { ControlCaller } from './commands.js';

export interface ControlCallerDeps {
  controlUrl: () => string;
  accessToken: () => Promise<string>;
  clock: EngineClock;
}

export function controlCaller({ controlUrl, accessToken, clock }: ControlCallerDeps): ControlCaller {
  return async (method, path, body) => {
    const url = `${controlUrl()}${path}`;
    const headers: Record<string, string> = { authorization: `Bearer ${await accessToken()}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const startedAt = clock.now();
    const response = await clock.track(fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // text/plain answers (401 "Incorrect token") stay text
    }
    const exchange: ControlExchange = { method, url, requestBody: body ?? null, status: response.status, durationMs: Math.round(clock.now() - startedAt), body: parsed };
    return exchange;
  };
}
