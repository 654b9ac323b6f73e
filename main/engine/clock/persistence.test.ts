import { describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import { restoreClock, saveClock } from './persistence.js';

describe('clock persistence', () => {
  it('restores a stopped clock at exactly the time it stood', () => {
    const { settings } = openStore({ dataDir: null });
    saveClock(settings, { now: 5_000, speed: 0 }, 1_000);
    expect(restoreClock(settings, 999_999)).toEqual({ now: 5_000, speed: 0 });
  });

  it('lets a running clock move on by the real time the console was closed', () => {
    const { settings } = openStore({ dataDir: null });
    saveClock(settings, { now: 5_000, speed: 60 }, 1_000);
    expect(restoreClock(settings, 4_000)).toEqual({ now: 8_000, speed: 60 });
  });

  it('has nothing to restore on a fresh data dir', () => {
    const { settings } = openStore({ dataDir: null });
    expect(restoreClock(settings, 0)).toBeUndefined();
  });
});
