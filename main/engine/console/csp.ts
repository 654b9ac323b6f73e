/**
 * The console page's Content-Security-Policy, in one place: the renderer build puts it in a meta
 * tag (Electron loads the page from a file), and the console listener also sends it as a header
 * for browsers, with the directives only a header can carry.
 */
export const CONSOLE_CSP_META = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https: http:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export const CONSOLE_CSP_HEADER = `${CONSOLE_CSP_META}; frame-ancestors 'none'`;
