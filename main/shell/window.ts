/**
 * The console's main window: sandboxed, context-isolated, no Node in the page, and the preload
 * bridge as its only door to the engine.
 */
import { BrowserWindow } from 'electron';
import { join } from 'node:path';

export interface RendererEntry {
  /** electron-vite's dev server URL, when running `npm run dev` (never in a packaged app). */
  devServerUrl?: string;
  /** The built console otherwise, on its own scheme (`app-protocol.ts`). */
  pageUrl: string;
  /** DevTools: only an unpackaged app has them. */
  devTools: boolean;
}

export function createMainWindow(entry: RendererEntry, preloadDir: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1360,
    height: 860,
    minWidth: 960,
    minHeight: 600,
    title: 'Cloud Queue Console',
    backgroundColor: '#111418',
    show: false,
    autoHideMenuBar: true,
    webPreferences: {
      preload: join(preloadDir, 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
      devTools: entry.devTools,
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(entry.devServerUrl ?? entry.pageUrl);
  return window;
}
