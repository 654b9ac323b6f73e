/**
 * The OAuth window (Electron only): a browser window on its own in-memory session partition, at
 * the authorize URL. It reports every main-frame request and page load to the engine
 * (`oauth.window.navigated`), which records it on the flow's timeline and answers whether it is
 * the redirect to the integration's redirect URI; that request is stopped and the engine's page
 * shows what arrived, so it works even when nothing listens there. All logic is in the engine
 * (login/console/console-flows.ts); this file only connects Electron's events to it.
 */
import { BrowserWindow, session, type WebContents } from 'electron';
import type { NavigationVerdict, WindowNavigationEvent } from '../engine/api/oauth-types.js';
import type { Engine } from '../engine/index.js';
import type { OAuthWindowRequest } from '../engine/login/console/console-flows.js';

const oauthWindows = new WeakSet<WebContents>();

/** The hardening lets OAuth windows navigate (the login pages, the redirect); no other window. */
export function isOAuthWindow(contents: WebContents): boolean {
  return oauthWindows.has(contents);
}

export function openOAuthWindow(engine: () => Engine | null, request: OAuthWindowRequest): void {
  // No "persist:" prefix: cookies and storage live in memory and go with the window.
  const partition = `oauth-${request.flowId}`;
  const ses = session.fromPartition(partition);
  // The login pages need no permission: every request and every check is refused.
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  const window = new BrowserWindow({
    width: 560,
    height: 760,
    title: 'OAuth flow · Cloud Queue Console',
    autoHideMenuBar: true,
    webPreferences: { partition, sandbox: true, contextIsolation: true, nodeIntegration: false, webSecurity: true },
  });
  oauthWindows.add(window.webContents);
  let captured = false;

  const report = async (url: string, event: WindowNavigationEvent): Promise<NavigationVerdict> => {
    const running = engine();
    if (!running || !/^https?:/.test(url)) return { action: 'continue' };
    return running.commands.run('oauth.window.navigated', { flowId: request.flowId, url, event });
  };

  ses.webRequest.onBeforeRequest({ urls: ['http://*/*', 'https://*/*'] }, (details, callback) => {
    if (details.resourceType !== 'mainFrame') return callback({});
    report(details.url, 'navigate').then(
      (verdict) => {
        if (verdict.action !== 'capture') return callback({});
        captured = true;
        callback({ cancel: true });
        void window.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(verdict.page ?? '')}`);
      },
      () => callback({}),
    );
  });
  window.webContents.on('did-navigate', (_event, url) => void report(url, 'load').catch(() => undefined));
  window.webContents.on('did-fail-load', (_event, _code, _description, url, isMainFrame) => {
    // The request stopped at the redirect URI fails by design; that is not news.
    if (isMainFrame && !captured) void report(url, 'fail').catch(() => undefined);
  });
  window.on('closed', () => {
    ses.webRequest.onBeforeRequest(null);
    void ses.clearStorageData();
  });
  void window.loadURL(request.authorizeUrl);
}
