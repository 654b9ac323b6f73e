/* global document */
// The remembered colour scheme on <html> before the first paint, so a page set to dark never
// flashes light. A file, not an inline script: the page's CSP allows only scripts of its origin.
// The same key and values as renderer/src/stores/theme.ts, which owns the choice afterwards.
try {
  const theme = localStorage.getItem('cqc-theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme);
} catch {
  // Storage refused: the system's scheme.
}
