/**
 * Electron's security checklist, applied to every web contents the app creates: no navigation,
 * server redirect or frame navigation away from the console (except in an OAuth window, whose job
 * is to walk the login pages), no new windows (links open in the user's browser), no webviews, and
 * no permission beyond writing to the clipboard from the console page (the copy buttons). The
 * decisions are in `navigation-policy.ts`, tested there; this file only wires them to Electron.
 */
import { app, session, shell, type WebContents } from 'electron';
import { mayNavigate, permissionGranted } from './navigation-policy.js';

export function harden(
  isConsoleUrl: (url: string) => boolean,
  isOAuthWindow: (contents: WebContents) => boolean = () => false,
): void {
  app.on('web-contents-created', (_event, contents) => {
    const keepOnConsole = (event: { url: string; preventDefault(): void }) => {
      if (!mayNavigate(event.url, { isConsoleUrl, inOAuthWindow: isOAuthWindow(contents) })) event.preventDefault();
    };
    contents.on('will-navigate', keepOnConsole);
    // A page the console may load could answer with a redirect elsewhere, and a frame inside it
    // navigates without `will-navigate`: both are held to the same rule.
    contents.on('will-redirect', keepOnConsole);
    contents.on('will-frame-navigate', keepOnConsole);
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (/^https?:\/\//.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
  // Both handlers: Chromium asks the request handler to prompt, and the check handler whenever a
  // page asks whether it already has a permission; without the second, the answer is "granted".
  session.defaultSession.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(
      permissionGranted(permission, {
        requestingUrl: details.requestingUrl || contents.getURL(),
        isConsoleUrl,
        inOAuthWindow: isOAuthWindow(contents),
      }),
    );
  });
  session.defaultSession.setPermissionCheckHandler((contents, permission, _requestingOrigin, details) =>
    permissionGranted(permission, {
      requestingUrl: details.requestingUrl ?? contents?.getURL(),
      isConsoleUrl,
      inOAuthWindow: contents !== null && isOAuthWindow(contents),
    }),
  );
}
