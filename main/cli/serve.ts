/**
 * `serve` (docs/contract/console.md §1): the whole engine under plain Node, with the console UI served to any
 * browser. Once all four listeners listen it announces itself (by default the one JSON ready line
 * on stdout); SIGINT/SIGTERM close everything and the command ends with exit 0.
 */
import type { ServiceUrls } from '../engine/api/types.js';
import { createEngine } from '../engine/index.js';
import { createLogger } from '../engine/log.js';
import type { CliIo } from './io.js';
import { findRendererBuild } from './renderer-dir.js';
import { parseServeArgs } from './serve-args.js';
import { packageVersion } from './version.js';
import { EXIT, type ExitCode } from './usage.js';

export interface ReadyAnnouncement {
  urls: ServiceUrls;
  adminToken: string;
}

export interface ServeHooks {
  /** Says that the console is up. Default: the JSON ready line on stdout, for scripts. */
  announce?: (ready: ReadyAnnouncement, io: CliIo) => void;
}

export const announceReadyLine = ({ urls, adminToken }: ReadyAnnouncement, io: CliIo): void =>
  io.stdout(`${JSON.stringify({ event: 'ready', urls, adminToken })}\n`);

/** Resolves with the exit code once a signal has closed the engine; rejects if it cannot start. */
export async function serveCommand(argv: string[], io: CliIo, hooks: ServeHooks = {}): Promise<ExitCode> {
  const options = parseServeArgs(argv);
  const log = createLogger(io.stderr);
  const consoleAssetsDir = findRendererBuild();
  if (!consoleAssetsDir)
    log.warn('no renderer build found: the admin API works, the console page asks for `npm run build`');

  // Signals are handled from the first moment: one that arrives during start-up waits for the
  // engine to finish starting, then closes it like any other.
  const starting = createEngine({ ...options, consoleAssetsDir, log, consoleKind: 'serve', version: packageVersion() });
  const stopped = new Promise<ExitCode>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      log.info(`${signal}: closing`);
      starting
        .then((engine) => engine.close())
        .then(
          () => resolve(EXIT.ok),
          (error: unknown) => {
            log.error('close failed', error);
            resolve(EXIT.failed);
          },
        );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

  const engine = await starting;
  (hooks.announce ?? announceReadyLine)({ urls: engine.urls, adminToken: engine.adminToken }, io);
  return stopped;
}
