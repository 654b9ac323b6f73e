/**
 * Failures: a 404, a request out of retries, a session replaced.
 * Rows of the transition table (transitions.ts puts the groups together, in this order).
 */
import { WITH_QUEUE, ACTIVE, type Transition } from './transition-schema.js';

export const FAILURE_ROWS: readonly Transition[] = [
  // failures (docs/contract/platform.md §3 rows 1, 4, 5; §7.1 404)
  {
    id: 'window-not-found',
    from: WITH_QUEUE,
    on: ['windowNotFound'],
    to: 'IDLE',
    effects: ['finalReportAtEdge', 'clearQueue', 'reportError'],
    note: 'docs/contract/platform.md §3/§7.1: 404 on /itemWindow for the itemId sent: stop, empty the queue, wait for new content',
  },
  {
    id: 'session-not-found',
    from: WITH_QUEUE,
    on: ['sessionNotFound'],
    to: 'IDLE',
    effects: ['finalReportAtEdge', 'evictSession', 'reportError'],
    note: 'docs/contract/platform.md §7.1: 404 on any other request evicts the session',
  },
  {
    id: 'background-exhausted',
    from: ACTIVE,
    on: ['backgroundExhausted'],
    fallback: true,
    to: 'same',
    effects: ['drainWindow', 'reportError'],
    note: 'docs/contract/platform.md §3/§7.4: background retries used up: play out the window, then pause; the session stays valid',
  },
  {
    id: 'foreground-failed',
    from: WITH_QUEUE,
    on: ['foregroundFailed'],
    to: 'IDLE',
    effects: ['finalReportAtEdge', 'stopPlayback', 'reportError'],
    note: 'docs/contract/platform.md §3/§7.2: a request reached the retry limit of its error type: idle, error reported',
  },
];
