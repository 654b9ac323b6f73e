/**
 * The engine's warnings: what it could not do as it should while it went on (a data dir another
 * console has open, a traffic log put aside, a player whose state could not be saved, traffic
 * that could not be stored). Each is logged and kept for the run, so that the status bar can show
 * it; a warning that keeps happening (a full disk fails every save) counts up in one row, and its
 * event goes out at most once a second.
 */
import type { EngineWarning, EngineWarningSource } from './api/types.js';
import type { Logger } from './log.js';

/** The most kept; the oldest goes first. */
export const MAX_WARNINGS = 20;
const EVENT_EVERY_MS = 1_000;

export interface EngineWarningsDeps {
  emit: (warning: EngineWarning) => void;
  wallNow: () => number;
  log?: Logger;
}

export class EngineWarnings {
  /** By source and message, in the order they first happened. */
  private readonly kept = new Map<string, { warning: EngineWarning; emittedAt: number }>();

  constructor(private readonly deps: EngineWarningsDeps) {}

  /** `error`: logged with the first occurrence (its message belongs in `message` already). */
  warn(source: EngineWarningSource, message: string, error?: unknown): void {
    const now = this.deps.wallNow();
    const key = `${source}\n${message}`;
    const found = this.kept.get(key);
    if (found) {
      found.warning.count++;
      found.warning.lastAt = now;
      if (now - found.emittedAt < EVENT_EVERY_MS) return;
      found.emittedAt = now;
      this.deps.emit({ ...found.warning });
      return;
    }
    if (error === undefined) this.deps.log?.warn(message);
    else this.deps.log?.error(message, error);
    const warning: EngineWarning = { source, message, firstAt: now, lastAt: now, count: 1 };
    this.kept.set(key, { warning, emittedAt: now });
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= MAX_WARNINGS) break;
      this.kept.delete(oldest);
    }
    this.deps.emit({ ...warning });
  }

  list(): EngineWarning[] {
    return [...this.kept.values()].map(({ warning }) => ({ ...warning }));
  }
}
