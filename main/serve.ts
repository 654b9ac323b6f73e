/**
 * Headless entry (`npm run serve`): the whole engine under plain Node, with the console UI served
 * to any browser. Prints exactly one JSON ready line on stdout once all four listeners listen;
 * SIGINT/SIGTERM close everything and exit 0.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HelpRequested, USAGE, UsageError, parseServeArgs } from './cli.js';
import { createEngine } from './engine/index.js';
import { createLogger } from './engine/log.js';

/** The renderer build of `npm run build` (serve runs from source, next to out/). */
function findRendererBuild(): string | undefined {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '../out/renderer');
  return existsSync(join(dir, 'index.html')) ? dir : undefined;
}

async function main(): Promise<void> {
  const log = createLogger();
  let options;
  try {
    options = parseServeArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof HelpRequested) {
      process.stdout.write(`${error.message}\n`);
      process.exit(0);
    }
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  const consoleAssetsDir = findRendererBuild();
  if (!consoleAssetsDir) log.warn('no renderer build found: the admin API works, the console page asks for `npm run build`');

  // Signals are handled from the first moment: one that arrives during start-up waits for the
  // engine to finish starting, then closes it like any other.
  const starting = createEngine({ ...options, consoleAssetsDir, log });
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: closing`);
    starting
      .then((engine) => engine.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          log.error('close failed', error);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const engine = await starting;
  process.stdout.write(`${JSON.stringify({ event: 'ready', urls: engine.urls, adminToken: engine.adminToken })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`cloud queue console could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
