/**
 * Starts `serve` as its own process, as users and CI do, and waits for the ready line
 * (docs/contract/console.md §1). Used by the process tests and the Playwright fixture.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import type { ServiceUrls } from '../engine/api/types.js';

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

/**
 * `viaNpm`: as docs/contract/console.md §1 writes it, `npm run serve -- …` (which first builds the console UI when
 * its build is stale); otherwise the engine's entry point straight from source, which is quicker.
 */
export async function startServe(args: string[], { timeoutMs = 20_000, viaNpm = false } = {}): Promise<ServeProcess> {
  const [command, commandArgs] = viaNpm
    ? ['npm', ['run', 'serve', '--', ...args]]
    : [process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'main/serve.ts'), ...args]];
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
