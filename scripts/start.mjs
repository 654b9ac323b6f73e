/**
 * `npm start`: the console, wherever it can run. On a fresh clone it installs the dependencies
 * first. With an Electron binary (downloaded on first start) and a display, it opens the desktop
 * app. Without one (offline, behind a proxy, a headless machine) it says so in one line and serves
 * the same console headless instead, printing its URL and opening the default browser.
 *
 *   npm start [-- --browser] [-- --desktop] [-- --no-open] [-- serve options: --port P, --data-dir D, …]
 *     --browser   skip the desktop app: serve the console to your browser
 *     --desktop   try the Electron download again now, even if it failed within the last day
 *     --no-open   do not open a browser (headless only)
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureInstall } from './ensure-install.mjs';

ensureInstall();

const argv = process.argv.slice(2);
const flag = (name) => {
  const at = argv.indexOf(name);
  if (at !== -1) argv.splice(at, 1);
  return at !== -1;
};
const browserOnly = flag('--browser');
const retryDesktop = flag('--desktop');
const noOpen = flag('--no-open');
const root = join(import.meta.dirname, '..');

/** Why the desktop window cannot open here, or null when it can. */
async function desktopUnavailable() {
  if (browserOnly) return 'you asked for the browser (--browser)';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'there is no display for a desktop window (DISPLAY is not set)';
  const { prepareElectron } = await import('./electron-native.mjs');
  const prepared = await prepareElectron({ retry: retryDesktop });
  return prepared.ok ? null : prepared.reason;
}

const why = await desktopUnavailable();
if (why === null) {
  // The desktop app, as before: electron-vite builds it and starts Electron.
  const child = spawn(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'preview'], {
    cwd: root,
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
} else {
  process.stderr.write(`Electron is not available: ${why}. Serving the console headless instead.\n`);
  const { ensureRendererBuild } = await import('./renderer-build.mjs');
  ensureRendererBuild();
  const { register } = await import('tsx/esm/api');
  register();
  const { startHeadless } = await import('./start-headless.ts');
  process.exitCode = await startHeadless(argv, { open: !noOpen });
}
