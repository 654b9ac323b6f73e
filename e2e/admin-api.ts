/**
 * The admin API of a served console (docs/contract/console.md §7), for specs that set the scene or check it
 * outside the UI. One helper for every spec: the console's token, JSON in and out.
 */
import type { ReadyLine } from '../main/testing/serve-process';

/** Calls `…/admin/api${path}`; answers the JSON body (null for an empty one), throws on a non-2xx. */
export async function adminApi<T = unknown>(
  ready: ReadyLine,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${ready.urls.console}/admin/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ready.adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** What the console's control API answered a request sent through `POST /control/send`. */
export interface ControlExchange {
  status: number;
  body: Record<string, unknown>;
}

/** A control API POST with the console's own token, as an integration sends it. */
export function controlApi(ready: ReadyLine, path: string, body?: unknown): Promise<ControlExchange> {
  return adminApi<ControlExchange>(ready, 'POST', '/control/send', { method: 'POST', path, body });
}
