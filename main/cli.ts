/**
 * The command line of `npm run serve` (CONTRACT §1):
 *   [--host H] [--port P] [--data-dir D] [--ephemeral] [--clock-speed S]
 * Bad input is a usage error with a message that says what to fix, never a half-started engine.
 */
import { parseArgs } from 'node:util';
import { defaultDataDir } from './engine/store/data-dir.js';
import { DEFAULT_HOST, DEFAULT_PORT } from './engine/http/listeners.js';

export interface ServeOptions {
  host: string;
  port: number;
  dataDir: string | null;
  clockSpeed: number | undefined;
}

export const USAGE = 'usage: npm run serve -- [--host H] [--port P] [--data-dir D] [--ephemeral] [--clock-speed S]';

export class UsageError extends Error {}

export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): ServeOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        ephemeral: { type: 'boolean' },
        'clock-speed': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_532) {
    throw new UsageError(`--port must be 0 (any free ports) or a port up to 65532 (P..P+3 are used), got ${values.port}`);
  }
  const clockSpeed = values['clock-speed'] === undefined ? undefined : Number(values['clock-speed']);
  if (clockSpeed !== undefined && (!Number.isFinite(clockSpeed) || clockSpeed < 0)) {
    throw new UsageError(`--clock-speed must be a number of 0 or more, got ${values['clock-speed']}`);
  }
  if (values.ephemeral && values['data-dir'] !== undefined) {
    throw new UsageError('--ephemeral and --data-dir exclude each other');
  }
  return {
    host: values.host ?? DEFAULT_HOST,
    port,
    dataDir: values.ephemeral ? null : (values['data-dir'] ?? defaultDataDir(env)),
    clockSpeed,
  };
}
