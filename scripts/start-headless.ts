/**
 * The headless half of `npm start`: the CLI's `serve`, announced for a person instead of a script
 * (the console's URL in one line, and the default browser opened on it where there is one).
 */
import { main } from '../main/cli/index.js';
import { processIo } from '../main/cli/io.js';
import type { ReadyAnnouncement } from '../main/cli/serve.js';

/** A browser can open: a terminal is watching, not CI, and on Linux a display exists. */
function canOpenBrowser(): boolean {
  if (process.env.CI || !process.stdout.isTTY) return false;
  return process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

export async function startHeadless(argv: string[], { open }: { open: boolean }): Promise<number> {
  const announce = ({ urls }: ReadyAnnouncement): void => {
    const opening = open && canOpenBrowser();
    process.stdout.write(
      `Cloud Queue Console is running at ${urls.console}/ (${opening ? 'opening it in your browser; ' : ''}Ctrl+C stops it)\n`,
    );
    if (opening) void openBrowser(urls.console);
  };
  return main(['serve', ...argv], processIo, { serve: { announce } });
}

async function openBrowser(url: string): Promise<void> {
  try {
    const { default: open } = await import('open');
    const child = await open(url);
    // No browser after all (xdg-open missing, say): the URL above is enough.
    child.on('error', () => undefined);
  } catch {
    // As above: opening is a convenience.
  }
}
