/**
 * The clock survives a restart: engine time and speed are stored on every change. While the
 * console is closed a running clock moves on as real time does; a stopped clock stays where it
 * stood, so a scenario paused at 10:00 engine time resumes at exactly 10:00.
 */
import type { ClockState } from '../api/types.js';
import type { SettingsRepository } from '../store/repositories/settings.js';

const KEY = 'clock';

interface StoredClock extends ClockState {
  /** Wall time at which `now` was read. */
  savedAt: number;
}

export function restoreClock(settings: SettingsRepository, wallNow: number): ClockState | undefined {
  const stored = settings.get<StoredClock>(KEY);
  if (!stored) return undefined;
  const elapsed = stored.speed === 0 ? 0 : Math.max(0, wallNow - stored.savedAt);
  return { now: stored.now + elapsed, speed: stored.speed };
}

export function saveClock(settings: SettingsRepository, state: ClockState, wallNow: number): void {
  settings.set(KEY, { ...state, savedAt: wallNow } satisfies StoredClock);
}
