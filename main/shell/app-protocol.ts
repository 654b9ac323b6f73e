/**
 * The console page's own scheme (Electron's security checklist: serve local files from a custom
 * protocol, not `file://`): `cqc://console/…` maps to the built renderer folder and nothing else.
 * A `file://` page can read any file the user can; a page on this scheme reaches only the
 * renderer's own files. Plain functions here (no 'electron' import), tested under Node;
 * `protocol.ts` wires them to Electron.
 */
import { extname, join, normalize, sep } from 'node:path';

export const APP_SCHEME = 'cqc';
export const APP_HOST = 'console';
/** The console page, as the window loads it and as the navigation policy recognises it. */
export const CONSOLE_PAGE_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * The file under `rootDir` that `url` names, or null: another scheme or host, a path that leaves
 * the folder however it is spelled (`..`, `%2e%2e`, a backslash, an encoded slash), or a NUL.
 */
export function appFileOf(url: string, rootDir: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\') || /%2f|%5c/i.test(parsed.pathname)) return null;
  const segments = path.split('/').filter(Boolean);
  if (segments.some((segment) => segment === '..' || segment === '.')) return null;
  const relative = segments.length === 0 ? 'index.html' : segments.join(sep);
  const file = normalize(join(rootDir, relative));
  const root = normalize(rootDir.endsWith(sep) ? rootDir : `${rootDir}${sep}`);
  return file.startsWith(root) ? file : null;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** A module script is refused without a JavaScript type, so the type is set, never sniffed. */
export function contentTypeOf(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * What a build may do that a packaged app must not: load the renderer from a dev server named by
 * ELECTRON_RENDERER_URL, and open DevTools. Only an unpackaged app (`npm run dev`, `npm start`)
 * honours either; an installed app ignores the variable whoever sets it.
 */
export function rendererEntry(options: { isPackaged: boolean; env: Record<string, string | undefined> }): {
  devServerUrl?: string;
  devTools: boolean;
} {
  if (options.isPackaged) return { devTools: false };
  const devServerUrl = options.env.ELECTRON_RENDERER_URL;
  return { ...(devServerUrl ? { devServerUrl } : {}), devTools: true };
}
