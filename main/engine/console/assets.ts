/**
 * The renderer, served to any browser by the console listener (`npm run serve`). The page learns
 * the admin token from a meta tag filled in here; only a loopback page of this very origin can
 * read it (Host guard + same-origin policy).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_TOKEN_META } from '../api/bridge.js';

export interface ConsoleAssets {
  dir: string;
  /** index.html with the admin token filled in. */
  indexHtml: string;
}

export function loadConsoleAssets(dir: string | undefined, adminToken: string): ConsoleAssets | null {
  if (!dir) return null;
  const index = join(dir, 'index.html');
  if (!existsSync(index)) return null;
  const html = readFileSync(index, 'utf8');
  const meta = new RegExp(`<meta name="${ADMIN_TOKEN_META}" content="[^"]*"\\s*/?>`);
  if (!meta.test(html)) throw new Error(`${index} has no <meta name="${ADMIN_TOKEN_META}"> to receive the admin token`);
  return { dir, indexHtml: html.replace(meta, `<meta name="${ADMIN_TOKEN_META}" content="${adminToken}" />`) };
}

export const NOT_BUILT_PAGE = `<!doctype html><meta charset="utf-8"><title>Cloud Queue Console</title>
<body style="font:14px system-ui;margin:3rem;max-width:40rem">
<h1>The console UI is not built</h1>
<p>The engine runs and the admin API answers, but there is no renderer build to show.
Run <code>npm run build</code> (or start with <code>npm run serve</code>, which builds it) and reload.</p>`;
