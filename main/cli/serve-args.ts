/**
 * The options of `serve` (docs/contract/console.md §1), as `cloud-queue-console serve` and `npm run serve` take them:
 *   [--host H] [--port P] [--data-dir D] [--ephemeral] [--clock-speed S]
 * Bad input is a usage error with a message that says what to fix, never a half-started engine.
 */
import { defaultDataDir } from '../engine/store/data-dir.js';
import { MAX_CLOCK_SPEED } from '../engine/api/commands/core.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../engine/http/listeners.js';
import { isLoopbackHostname } from '../engine/http/loopback.js';
import { numberOf, parseCommandLine, UsageError } from './usage.js';

export interface ServeOptions {
  host: string;
  port: number;
  dataDir: string | null;
  clockSpeed: number | undefined;
}

export const USAGE = `usage: cloud-queue-console serve [--host H] [--port P] [--data-dir D] [--ephemeral] [--clock-speed S]
       npm run serve -- [the same options]   (in a clone of the repository)`;

/** `--help`: what each option does, and what the exit codes mean. */
export const HELP = `${USAGE}

Runs the whole console headless: login service, control API, cloud queue server, simulated
players, and the console UI for any browser. Prints one JSON ready line on stdout once it listens.

  --host H          loopback address to listen on (default ${DEFAULT_HOST}; also ::1, localhost)
  --port P          console and admin API on P, login P+1, control P+2, cloud queue P+3
                    (default ${DEFAULT_PORT}; 0 takes free ports)
  --data-dir D      where the data lives (default: the OS app-data folder cloud-queue-console)
  --ephemeral       everything in memory, nothing written
  --clock-speed S   engine clock speed: 1 real time, 0 stopped, up to ${MAX_CLOCK_SPEED}
                    (default: the speed the data dir saved, else 1)

A data dir that another running console holds is refused (exit 1, naming the folder and the other
process): two consoles would run the same players and write the same data over each other.
So is one that cannot be used (a file in the way, no write access) and a damaged console.sqlite
(exit 1, naming the file and what to do); a damaged traffic log is put aside and a new one begun.
The data dir is kept private: the folder 0700, its files 0600.

Exit codes: 0 stopped by SIGINT/SIGTERM (or --help), 1 could not start, 2 bad command line.`;

export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ServeOptions {
  const { values } = parseCommandLine(
    argv,
    {
      host: { type: 'string' },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      ephemeral: { type: 'boolean' },
      'clock-speed': { type: 'string' },
    },
    HELP,
    { positionals: false },
  );
  // `[::1]`, as a URL writes it, is the address ::1 to listen on.
  const host = (values.host ?? DEFAULT_HOST).replace(/^\[(.*)\]$/, '$1');
  if (!isLoopbackHostname(host)) {
    throw new UsageError(
      `--host must be a loopback address (127.0.0.1, ::1, localhost), got ${host}: the console hands its admin token to any page it serves`,
    );
  }
  const port = values.port === undefined ? DEFAULT_PORT : portOf(values.port);
  const clockSpeed =
    values['clock-speed'] === undefined
      ? undefined
      : numberOf('clock-speed', values['clock-speed'], 0, MAX_CLOCK_SPEED);
  if (values.ephemeral && values['data-dir'] !== undefined) {
    throw new UsageError('--ephemeral and --data-dir exclude each other');
  }
  if (values['data-dir']?.trim() === '') throw new UsageError('--data-dir must name a folder, got an empty value');
  return {
    host,
    port,
    dataDir: values.ephemeral ? null : (values['data-dir'] ?? defaultDataDir(env)),
    clockSpeed,
  };
}

/** A port in decimals: an empty value is not 0 (free ports, outsider), nor `0x10` 16. */
function portOf(text: string): number {
  const port = /^[0-9]{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65_532))
    throw new UsageError(
      `--port must be 0 (any free ports) or a port up to 65532 (P..P+3 are used), got ${text === '' ? 'an empty value' : text}`,
    );
  return port;
}
