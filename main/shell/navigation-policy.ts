/**
 * What the Electron hardening decides, as plain functions (no 'electron' import, so vitest runs
 * them under Node): which URL is the console page, where a window may navigate or be redirected,
 * and which permission a page gets. `hardening.ts` and `index.ts` only wire them to Electron.
 * The console window stays on the console; only the console page may write to the clipboard.
 */

export interface ConsoleEntry {
  /** electron-vite's dev server URL (`npm run dev`), e.g. `http://localhost:5173`. */
  devServerUrl?: string | undefined;
  /** The built console page otherwise, on the console's own scheme (`cqc://console/index.html`). */
  pageUrl: string;
}

/**
 * Whether `url` is the console page. With a dev server: the same origin (scheme, host and port
 * compared as parsed URLs, never as string prefixes: `http://localhost:5173.evil.com` is another
 * host) and a path at or under the dev server's. Without one: exactly the console page, any
 * fragment (the console's routes live in it); a `file:` URL never is.
 */
export function consoleUrlMatcher(entry: ConsoleEntry): (url: string) => boolean {
  if (entry.devServerUrl) {
    const base = parse(entry.devServerUrl);
    // A dev server is http(s): a URL without an origin of its own ('null') matches nothing.
    if (!base || base.origin === 'null') return () => false;
    const basePath = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
    return (url) => {
      const candidate = parse(url);
      if (!candidate || candidate.origin !== base.origin) return false;
      // Credentials in the URL are not the console's and never needed.
      if (candidate.username || candidate.password) return false;
      return candidate.pathname === base.pathname || candidate.pathname.startsWith(basePath);
    };
  }
  const page = parse(entry.pageUrl);
  return (url) => {
    const candidate = parse(url);
    return (
      !!page &&
      !!candidate &&
      candidate.protocol === page.protocol &&
      !candidate.username &&
      !candidate.password &&
      withoutFragment(candidate) === withoutFragment(page)
    );
  };
}

/**
 * A navigation, a server redirect or a frame's navigation: allowed to the console page, and
 * anywhere in an OAuth window (whose job is to walk the login pages and the redirect).
 */
export function mayNavigate(
  url: string,
  context: { isConsoleUrl: (url: string) => boolean; inOAuthWindow: boolean },
): boolean {
  return context.inOAuthWindow || context.isConsoleUrl(url);
}

/**
 * The permissions the console page may have: only writing to the clipboard (its copy buttons call
 * `navigator.clipboard.writeText`), and only on the console page itself. Everything else
 * (camera, microphone, notifications, geolocation, clipboard reads, …) is refused, everywhere.
 */
export const CONSOLE_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export function permissionGranted(
  permission: string,
  context: { requestingUrl: string | undefined; isConsoleUrl: (url: string) => boolean; inOAuthWindow: boolean },
): boolean {
  if (!CONSOLE_PERMISSIONS.has(permission) || context.inOAuthWindow) return false;
  return context.requestingUrl !== undefined && context.isConsoleUrl(context.requestingUrl);
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

function withoutFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}
