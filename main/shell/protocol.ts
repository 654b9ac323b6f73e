/**
 * Serves the built console on its own scheme (`app-protocol.ts` decides which file a URL names).
 * The scheme is registered as standard and secure before the app is ready, as Electron requires,
 * so the page has an origin of its own, `cqc://console`, and the usual web rules apply to it.
 */
import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { APP_SCHEME, appFileOf, contentTypeOf } from './app-protocol.js';

/** Before `app.whenReady()`: Electron only takes privileged schemes then. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** After ready: answers `cqc://console/…` from `rendererDir`, and 404 for anything outside it. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = appFileOf(request.url, rendererDir);
    if (!file) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    const response = await net.fetch(pathToFileURL(file).href);
    if (!response.ok) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    return new Response(response.body, {
      status: 200,
      headers: { 'content-type': contentTypeOf(file), 'x-content-type-options': 'nosniff' },
    });
  });
}
