/**
 * Refreshes for a stream of changes: one at a time per key, and one more after it if changes came
 * meanwhile. Invalidating on each change cancels the refetch still on its way; when changes come
 * faster than a refetch takes (a generation's edits, every few dozen milliseconds), nothing new
 * ever reached the screen until they stopped.
 */
export interface SerialRefresh {
  /** `key` changed: refresh it now, or after the refresh already running. */
  changed(key: string): void;
  /** `key` is gone: a refresh still to come for it is dropped. */
  forget(key: string): void;
}

export function serialRefresh(refresh: (key: string) => Promise<unknown>): SerialRefresh {
  const changed = new Set<string>();
  const running = new Set<string>();
  const drain = async (key: string) => {
    running.add(key);
    try {
      while (changed.delete(key)) await refresh(key).catch(() => undefined);
    } finally {
      running.delete(key);
    }
  };
  return {
    changed(key) {
      changed.add(key);
      if (!running.has(key)) void drain(key);
    },
    forget(key) {
      changed.delete(key);
    },
  };
}
