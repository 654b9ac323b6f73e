/**
 * Starts `serve` as its own process, as users and CI do, and waits for the ready line
 * (docs/contract/console.md §1). Used by the process tests and the Playwright fixture.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import type { ServiceUrls } from '../engine/api/types.js';
import { newestMtime } from '../../scripts/newest-mtime.mjs';

export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

export interface ReadyLine {
  event: 'ready';
  urls: ServiceUrls;
  adminToken: string;
}

export interface ServeProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  ready: ReadyLine;
  /** Everything the process wrote to stderr so far (its human-readable log). */
  stderr(): string;
  /** Sends `signal` and resolves with the exit code (null when killed by the signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The command line as `npm run build` compiles it, which the packed tarball ships. */
const BUILT_CLI = join(PROJECT_ROOT, 'out/cli/bin.js');
/** What the command line is built from: the engine and CLI sources (tests left out) and the build's own settings. */
const CLI_SOURCES = ['main', 'vite.cli.config.ts', 'package-lock.json'];

/** A source's newest change: test files, and folders' own times, left out. */
const newestSource = (path: string) =>
  newestMtime(path, { skip: (name) => /\.test\.tsx?$/.test(name), filesOnly: true });

let checkedBuild: string | null = null;

/**
 * The built command line's path, once it is there and newer than every source it is built from:
 * a test that ran an older build would pass on code that is no longer there (`npm test` builds
 * first; `npm run test:unit`, `test:e2e` and a single file do not). Checked once per process.
 */
export function builtCli(): string {
  if (checkedBuild) return checkedBuild;
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`npm run build\` first`);
  const built = statSync(BUILT_CLI).mtimeMs;
  const newer = CLI_SOURCES.find((source) => newestSource(join(PROJECT_ROOT, source)) > built);
  if (newer)
    throw new Error(`${BUILT_CLI} is older than what it is built from (${newer}): run \`npm run build\` first`);
  return (checkedBuild = BUILT_CLI);
}

/** How `serve` is started: `npm run serve` as users type it, or the built CLI's `serve`. */
export type ServeVia = 'npm' | 'built';

/** The command and arguments that start `serve` with `args`, as `via` says. */
function serveCommand(args: string[], via: ServeVia = 'built'): [string, string[]] {
  if (via === 'npm') return ['npm', ['run', 'serve', '--', ...args]];
  return [process.execPath, [builtCli(), 'serve', ...args]];
}

/**
 * `via: 'npm'`: as docs/contract/console.md §1 writes it, `npm run serve -- …` (which first builds
 * the console UI when its build is stale, then runs the engine from source through tsx). Otherwise
 * the built CLI's `serve`, the same command (main/serve.ts only hands its arguments to the CLI's
 * `serve`): it starts in about 0.6 s against tsx's 2.2 s and 3 s of CPU, which a suite that starts
 * consoles by the dozen paid on every one. What differs is only what depends on where the code
 * runs from (a fleet's worker script, the UI's folder): the one `npm run serve` test covers the
 * source's way.
 */
export async function startServe(
  args: string[],
  { timeoutMs = 20_000, via = 'built' as ServeVia } = {},
): Promise<ServeProcess> {
  const [command, commandArgs] = serveCommand(args, via);
  // Under `npm test`, npm hands its own settings down as npm_config_*: the project's .npmrc decides.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_config_')),
  );
  const child = spawn(command, commandArgs, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve did not become ready in ${timeoutMs} ms:\n${stderr}`)),
      timeoutMs,
    );
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as ReadyLine);
      } catch {
        reject(new Error(`first stdout line is not the JSON ready line: ${line}`));
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before it was ready:\n${stderr}`));
    });
  });

  return {
    child,
    ready,
    stderr: () => stderr,
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
