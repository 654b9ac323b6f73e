/**
 * Electron entry: builds the engine in the main process, opens the console window, and serves
 * the engine to it over IPC. Everything the console does lives in the engine; this file and
 * shell/ only host it.
 */
import { app, BrowserWindow, dialog, type WebFrameMain } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, type Engine } from './engine/index.js';
import { DEFAULT_PORT } from './engine/http/listeners.js';
import { createLogger } from './engine/log.js';
import { CONSOLE_PAGE_URL, rendererEntry } from './shell/app-protocol.js';
import { harden } from './shell/hardening.js';
import { installIpc } from './shell/ipc.js';
import { consoleUrlMatcher } from './shell/navigation-policy.js';
import { electronNativeBinding } from './shell/native-binding.js';
import { isOAuthWindow, openOAuthWindow } from './shell/oauth-window.js';
import { registerAppScheme, serveRenderer } from './shell/protocol.js';
import { createMainWindow } from './shell/window.js';

const here = dirname(fileURLToPath(import.meta.url));
const rendererDir = join(here, '../renderer');
// A packaged app ignores ELECTRON_RENDERER_URL and has no DevTools, whoever sets the variable.
const { devServerUrl, devTools } = rendererEntry({ isPackaged: app.isPackaged, env: process.env });
const log = createLogger();

// Parsed and compared by origin and path, never by string prefix: a dev server at
// `http://localhost:5173` must not trust `http://localhost:5173.evil.com` (shell/navigation-policy.ts).
const isConsoleUrl = consoleUrlMatcher({ devServerUrl, pageUrl: CONSOLE_PAGE_URL });

const isTrustedFrame = (frame: WebFrameMain | null): boolean =>
  frame !== null && frame.parent === null && isConsoleUrl(frame.url);

let engine: Engine | null = null;

async function startEngine(): Promise<Engine> {
  const base = {
    dataDir: app.getPath('userData'),
    nativeBinding: electronNativeBinding(app.getAppPath()),
    consoleAssetsDir: rendererDir,
    consoleKind: 'desktop app',
    version: app.getVersion(),
    log,
    // "Start OAuth flow" opens an OAuth window of its own; the engine records its navigations.
    openOAuthWindow: (request: Parameters<typeof openOAuthWindow>[1]) => openOAuthWindow(() => engine, request),
  };
  try {
    return await createEngine({ ...base, port: DEFAULT_PORT });
  } catch (error) {
    // Another console (or `npm run serve`) holds the default ports: take free ones instead.
    if (!/in use/.test((error as Error).message)) throw error;
    log.warn(`${(error as Error).message}; using free ports instead`);
    return createEngine({ ...base, port: 0 });
  }
}

// Tests (and people who want a second, separate console) point the app at another data folder.
if (process.env.CQC_USER_DATA_DIR) app.setPath('userData', process.env.CQC_USER_DATA_DIR);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.enableSandbox();
  registerAppScheme();
  let uninstallIpc: (() => void) | null = null;

  const openWindow = (): BrowserWindow =>
    createMainWindow(
      { ...(devServerUrl ? { devServerUrl } : {}), pageUrl: CONSOLE_PAGE_URL, devTools },
      join(here, '../preload'),
    );

  app.on('second-instance', () => {
    const window = BrowserWindow.getAllWindows()[0];
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });

  app
    .whenReady()
    .then(async () => {
      serveRenderer(rendererDir);
      harden(isConsoleUrl, isOAuthWindow);
      engine = await startEngine();
      uninstallIpc = installIpc(engine, isTrustedFrame);
      openWindow();
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) openWindow();
      });
    })
    .catch((error: unknown) => {
      dialog.showErrorBox(
        'Cloud Queue Console could not start',
        error instanceof Error ? error.message : String(error),
      );
      app.exit(1);
    });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Close the engine (listeners, database) before the process goes away.
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed || !engine) return;
    event.preventDefault();
    uninstallIpc?.();
    void engine.close().finally(() => {
      closed = true;
      app.quit();
    });
  });
}
