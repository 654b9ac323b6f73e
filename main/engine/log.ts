/**
 * Human-readable log lines for people watching a terminal (stderr; stdout is reserved for the
 * machine-readable ready line of docs/contract/console.md §1).
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

export function createLogger(write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const line = (level: string, message: string): void =>
    write(`${new Date().toISOString().slice(11, 19)} ${level} ${message}\n`);
  return {
    info: (message) => line('info ', message),
    warn: (message) => line('warn ', message),
    error: (message, error) =>
      line(
        'error',
        error === undefined
          ? message
          : `${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      ),
  };
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
