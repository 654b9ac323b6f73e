/**
 * Electron's security checklist, applied to every web contents the app creates: no navigation
 * away from the console (except in an OAuth window, whose job is to walk the login pages), no new
 * windows (links open in the user's browser), no webviews, and no permissions beyond writing to
 * the clipboard (the copy buttons).
 */
import { app, session, shell, type WebContents } from 'electron';

export function harden(isConsoleUrl: (url: string) => boolean, mayNavigate: (contents: WebContents) => boolean = () => false): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isConsoleUrl(url) && !mayNavigate(contents)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (/^https?:\/\//.test(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => {
    callback(permission === 'clipboard-sanitized-write');
  });
}
