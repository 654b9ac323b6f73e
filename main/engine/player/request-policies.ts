/**
 * One table of the player's requests (docs/contract/platform.md §7.2–§7.4, §3, §7.1): for each
 * kind, who waits for its answer, how it is retried, and what a failure means for the player.
 * The call sites name a kind; they never decide a retry or the meaning of a 404 themselves.
 * The wait before each try is computed in retry.ts and used as computed by `RequestRetries`.
 */
import type { RetryWait } from '../api/player-types.js';
import type { EngineClock } from '../clock/clock.js';
import type { ClientResult } from './client.js';
import type { PlayerEvent, WindowPurpose } from './events.js';
import {
  BACKGROUND_RETRIES,
  FOREGROUND_RETRY_LIMIT,
  backgroundRetryDelay,
  foregroundRetryDelay,
  type Failure,
} from './retry.js';

export type RequestKind =
  | 'load'
  | 'skip'
  | 'intent'
  | 'resume'
  | 'skipToItem'
  | 'refreshCommand'
  | 'nextWindow'
  | 'queueCompleted'
  | 'versionChanged'
  | 'refreshAfterSkipToItem'
  | 'versionPoll'
  | 'contextRefetch'
  | 'report'
  | 'cutOffReport';

/** `none`: answered as it comes (§7.3 load); `errorTypes`: §7.2's table; `background`: §7.4. */
export type RetryRule = 'none' | 'errorTypes' | 'background';

/** What the player does with a failure, once the retry rule has given up. */
export type FailureMeaning =
  /** The load fails with the error; the player stays as it was (§3 last row, §7.3). */
  | 'loadFails'
  /** A 404 on /itemWindow: the queue is emptied, the player goes idle (§3 first row, §7.1). */
  | 'queueEmptied'
  /** A 404 on any other request: the session is evicted (§7.1). */
  | 'sessionEvicted'
  /** The request's limit is reached: idle, the error reported (§3 row 5). */
  | 'playbackStops'
  /** Background retries used up: the rest of the window plays, then a pause (§3 row 4, §7.4.3). */
  | 'windowPlaysOut'
  /** A refused user skip (403): the skip is refused, playback goes on (docs/contract/console.md §3). */
  | 'skipRefused'
  /** Only noted as the player's last error: a report never stops playback. */
  | 'noted';

export interface RequestPolicy {
  /** Who waits for the answer: a control command, the user at the player, or nobody (background). */
  waitsFor: 'command' | 'user' | 'nobody';
  retry: RetryRule;
  notFound: FailureMeaning;
  /** A 403 where it means something of its own; otherwise it is one of the `otherwise` failures. */
  forbidden?: FailureMeaning;
  /** Any other failure. */
  otherwise: FailureMeaning;
  rule: string;
}

const BACKGROUND_WINDOW: RequestPolicy = {
  waitsFor: 'nobody',
  retry: 'background',
  notFound: 'queueEmptied',
  otherwise: 'windowPlaysOut',
  rule: 'platform §7.4; 404 §3 row 1',
};

export const REQUEST_POLICIES: Record<RequestKind, RequestPolicy> = {
  load: {
    waitsFor: 'command',
    retry: 'none',
    notFound: 'loadFails',
    otherwise: 'loadFails',
    rule: 'platform §7.3: no retry before answering loadCloudQueue',
  },
  skip: {
    waitsFor: 'user',
    retry: 'errorTypes',
    notFound: 'queueEmptied',
    forbidden: 'skipRefused',
    otherwise: 'playbackStops',
    rule: 'platform §4.3 skipNext/skipPrev, §7.2',
  },
  intent: {
    waitsFor: 'user',
    retry: 'errorTypes',
    notFound: 'queueEmptied',
    otherwise: 'playbackStops',
    rule: 'platform §4.3 pause/play, §7.2',
  },
  resume: {
    waitsFor: 'user',
    retry: 'errorTypes',
    notFound: 'queueEmptied',
    otherwise: 'playbackStops',
    rule: 'platform §3 row 3, §7.2',
  },
  skipToItem: { ...BACKGROUND_WINDOW, rule: 'platform §7.3: skipToItem answers success, retried in the background' },
  refreshCommand: {
    ...BACKGROUND_WINDOW,
    rule: 'platform §7.3: refreshCloudQueue answers success, retried in the background',
  },
  nextWindow: { ...BACKGROUND_WINDOW, rule: 'platform §4.3 refresh / Next Window, §7.4' },
  queueCompleted: { ...BACKGROUND_WINDOW, rule: 'platform §4.3 queueCompleted, §7.4' },
  versionChanged: {
    ...BACKGROUND_WINDOW,
    rule: 'platform §4.3 GET /version: a changed version is followed by GET /itemWindow',
  },
  refreshAfterSkipToItem: {
    ...BACKGROUND_WINDOW,
    rule: 'platform §4.3 skipToItem with track metadata: later reason refresh',
  },
  versionPoll: {
    waitsFor: 'nobody',
    retry: 'background',
    notFound: 'sessionEvicted',
    otherwise: 'windowPlaysOut',
    rule: 'platform §7.4 Queue Version Poll, §8',
  },
  contextRefetch: {
    waitsFor: 'nobody',
    retry: 'background',
    notFound: 'sessionEvicted',
    otherwise: 'windowPlaysOut',
    rule: 'platform §7.4; console §5 (a changed contextVersion)',
  },
  report: {
    waitsFor: 'nobody',
    retry: 'errorTypes',
    notFound: 'sessionEvicted',
    otherwise: 'noted',
    rule: 'platform §2.3, §7.1: reports never stop playback',
  },
  // The final report of a queue being replaced: its 404 is about that queue, not the new session.
  cutOffReport: {
    waitsFor: 'nobody',
    retry: 'errorTypes',
    notFound: 'noted',
    otherwise: 'noted',
    rule: 'platform §2.3: one final per playback',
  },
};

/** The kind of a background window request, by the purpose the player asked it for. */
export function backgroundWindowKind(purpose: WindowPurpose): RequestKind {
  switch (purpose) {
    case 'refresh':
      return 'nextWindow';
    case 'queueCompleted':
      return 'queueCompleted';
    case 'versionChanged':
      return 'versionChanged';
    case 'refreshCommand':
      return 'refreshCommand';
    case 'skipToItem':
      return 'refreshAfterSkipToItem';
    default:
      // The user's skips and intents are foreground requests of their own (runUserSkip, notifyIntent).
      throw new Error(`a ${purpose} window is not a background request`);
  }
}

/** What the failure of a request of `kind` means, after its retries. */
export function meaningOf(kind: RequestKind, failure: Failure): FailureMeaning {
  const policy = REQUEST_POLICIES[kind];
  if (failure.kind === 'notFound') return policy.notFound;
  if (failure.status === 403 && policy.forbidden) return policy.forbidden;
  return policy.otherwise;
}

/**
 * The event a meaning dispatches, or null when it dispatches none (a report's failure is noted;
 * a refused skip and a failed load are dispatched by their own flows, which know the skip or the
 * load they settle).
 */
export function failureEvent(meaning: FailureMeaning, failure: Failure, purpose?: WindowPurpose): PlayerEvent | null {
  switch (meaning) {
    case 'queueEmptied':
      return { type: 'windowNotFound', failure };
    case 'sessionEvicted':
      return { type: 'sessionNotFound', failure };
    case 'playbackStops':
      return { type: 'foregroundFailed', failure };
    case 'windowPlaysOut':
      return { type: 'backgroundExhausted', failure, ...(purpose ? { purpose } : {}) };
    case 'skipRefused':
      return { type: 'skipRefused', failure };
    case 'loadFails':
      return { type: 'loadFailed', failure };
    case 'noted':
      return null;
  }
}

export interface RetriesDeps {
  clock: EngineClock;
  /** The player's label for its timers. */
  label: string;
  closed(): boolean;
  /** The player's epoch now. */
  epoch(): number;
  onResult(result: ClientResult<unknown>): void;
  /** A retry wait started or ended: what `waiting()` returns changed. */
  onChange(): void;
}

/**
 * The retry loops of the table's rules, with the waits they are sleeping through (the player
 * panel's "retrying": each failed request waiting for its next try, with when and why).
 */
export class RequestRetries {
  private readonly waits = new Map<RetryWait, { epoch: number; wanted: () => boolean }>();
  private ids = 0;

  constructor(private readonly deps: RetriesDeps) {}

  /**
   * Sends a request of `kind` until it succeeds or its rule gives up. `wanted` is asked before
   * each retry: once false, the last failure is returned without one.
   */
  async send<T>(
    kind: RequestKind,
    send: (retry: number) => Promise<ClientResult<T>>,
    wanted: () => boolean = () => true,
  ): Promise<ClientResult<T>> {
    const { retry: rule } = REQUEST_POLICIES[kind];
    const epoch = this.deps.epoch();
    for (let retry = 0; ; retry++) {
      const sentAt = this.deps.clock.now();
      const result = await send(retry);
      this.deps.onResult(result);
      if (result.ok || rule === 'none' || this.deps.closed()) return result;
      const wait = this.nextWait(rule, result.failure, retry, sentAt);
      if (wait === null) return result;
      await this.waitToRetry(
        result,
        {
          background: rule === 'background',
          retry: retry + 1,
          of: rule === 'background' ? BACKGROUND_RETRIES : FOREGROUND_RETRY_LIMIT,
          delay: wait,
        },
        wanted,
      );
      // A retry is for the queue it began with: once that queue is dropped or a load begins (a new
      // epoch), it is not sent (it would go to the new queue's server, or to none).
      if (this.deps.closed() || this.deps.epoch() !== epoch || !wanted()) return result;
    }
  }

  /** Retry waits of the player's current epoch that are still wanted. */
  waiting(): RetryWait[] {
    const epoch = this.deps.epoch();
    return [...this.waits].filter(([, wait]) => wait.epoch === epoch && wait.wanted()).map(([wait]) => wait);
  }

  /**
   * §7.2 counts its waits from the failure; §7.4 from the try before ("10 seconds after the
   * original request"), so what the answer took is not waited again.
   */
  private nextWait(
    rule: Exclude<RetryRule, 'none'>,
    failure: Failure,
    retriesSoFar: number,
    sentAt: number,
  ): number | null {
    if (rule === 'errorTypes') return foregroundRetryDelay(failure, retriesSoFar);
    const interval = backgroundRetryDelay(failure, retriesSoFar);
    return interval === null ? null : Math.max(0, sentAt + interval - this.deps.clock.now());
  }

  private async waitToRetry(
    failed: Extract<ClientResult<unknown>, { ok: false }>,
    next: { background: boolean; retry: number; of: number; delay: number },
    wanted: () => boolean,
  ): Promise<void> {
    const { endpoint, reason } = failed.exchange;
    const { message, status } = failed.failure;
    const wait: RetryWait = {
      id: ++this.ids,
      endpoint,
      ...(reason !== undefined ? { reason } : {}),
      background: next.background,
      retry: next.retry,
      of: next.of,
      at: this.deps.clock.now() + next.delay,
      failure: { message, ...(status !== undefined ? { status } : {}) },
    };
    this.waits.set(wait, { epoch: this.deps.epoch(), wanted });
    this.deps.onChange();
    try {
      await new Promise<void>((resolve) =>
        this.deps.clock.setTimeout(resolve, next.delay, `${this.deps.label} retry wait`),
      );
    } finally {
      this.waits.delete(wait);
      if (!this.deps.closed()) this.deps.onChange();
    }
  }
}

/**
 * The two doors of the player core a failure goes through. Named here, not taken from core.ts,
 * because the core holds this table's `RequestRetries`: the table needs nothing else of it.
 */
export interface FailureSink {
  dispatch(event: PlayerEvent, meta: { requestId: string }): unknown;
  noteError(failure: Failure): void;
}

/**
 * Dispatches what the failure of a request of `kind` means (`meaningOf`); nothing for one that
 * is only noted (a report), which becomes the player's last error.
 */
export function dispatchFailure(
  p: FailureSink,
  kind: RequestKind,
  failure: Failure,
  requestId: string,
  purpose?: WindowPurpose,
): void {
  const event = failureEvent(meaningOf(kind, failure), failure, purpose);
  if (event) p.dispatch(event, { requestId });
  else p.noteError(failure);
}
