/**
 * Picks the transport once at start: the preload bridge when running inside Electron, otherwise
 * HTTP to the page's own origin with the admin token the console server put in the page.
 */
import { ADMIN_TOKEN_META } from '@engine-api/bridge';
import { Api, type Transport } from './client';
import { httpTransport } from './http';
import { ipcTransport } from './ipc';

export { Api, ApiError } from './client';
export type { ConnectionState } from './client';

export function createApi(win: Window = window): Api {
  let transport: Transport;
  if (win.cqc) {
    transport = ipcTransport(win.cqc);
  } else {
    const token = win.document.querySelector<HTMLMetaElement>(`meta[name="${ADMIN_TOKEN_META}"]`)?.content ?? '';
    transport = httpTransport({ baseUrl: win.location.origin, adminToken: token });
  }
  return new Api(transport);
}
