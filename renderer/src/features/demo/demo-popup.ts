/**
 * The sign-in window of the demo's first step: a popup over the console (not a tab the presenter
 * must find again), closed by the demo as soon as the redirect came back and the token is held.
 * Kept here, not in the checklist, so it is still closed when the panel was closed meanwhile.
 */

const WIDTH = 520;
const HEIGHT = 720;

let signInWindow: Window | null = null;

/** Window features for a popup centred over the console's window. */
export function popupFeatures(
  host: Pick<Window, 'screenX' | 'screenY' | 'outerWidth' | 'outerHeight'> = window,
): string {
  const left = Math.max(0, Math.round(host.screenX + (host.outerWidth - WIDTH) / 2));
  const top = Math.max(0, Math.round(host.screenY + (host.outerHeight - HEIGHT) / 3));
  return `popup,width=${WIDTH},height=${HEIGHT},left=${left},top=${top}`;
}

export function holdSignInWindow(opened: Window): void {
  signInWindow = opened;
}

/** How long the demo keeps trying to close the sign-in window, and how often. */
const CLOSE_FOR_MS = 15_000;
const CLOSE_EVERY_MS = 250;

/**
 * Closes the sign-in window if it is still open. The window has no opener (start-flow.ts cuts
 * it), so the browser lets the console close it only while it shows a page of the console's own
 * origin: the sample's callback. The token can be held a moment before that page has loaded (the
 * callback trades the code first), so it tries again until the window is gone or time is up.
 */
export function closeSignInWindow(): void {
  const opened = signInWindow;
  signInWindow = null;
  if (!opened) return;
  const started = Date.now();
  const attempt = () => {
    if (!opened.closed) opened.close();
    if (opened.closed || Date.now() - started > CLOSE_FOR_MS) window.clearInterval(timer);
  };
  const timer = window.setInterval(attempt, CLOSE_EVERY_MS);
  attempt();
}
