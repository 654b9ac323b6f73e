/**
 * "Trigger now": a fault rule injected into a steadily playing player waited up to ten
 * engine minutes for the request it matches. This sends that request at once, the way the player
 * sends it on its own: the same flow, the same retries, the same meaning of a failure
 * (request-policies.ts), so what the rule does to it is what it would have done later. Only a
 * request the player would send now is sent: one its state or its queue's policies rule out is
 * refused with the reason its row in the precondition table gives (preconditions.ts), and nothing
 * changes.
 */
import type { TriggerRequest, TriggerResult } from '../api/fault-types.js';
import { describeRetrySchedule, RETRY_SCHEDULE, type RetrySchedule } from '../api/retry-schedule.js';
import type { PlayerCore } from './core.js';
import { backgroundWindow, pollVersion, refetchContext } from './flows.js';
import { rescheduleVersionPoll } from './playback.js';
import { checkPreconditions, preconditionInputs } from './preconditions.js';

export interface TriggerActions {
  /** The user's action at the player (`Player.act`). */
  act(action: 'skipNext' | 'skipPrev' | 'pause' | 'play'): Promise<void>;
  /** refreshCloudQueue (`Player.refresh`). */
  refresh(): void;
}

type Sent = Pick<TriggerResult, 'sent' | 'note'>;

/** The note on a triggered Next Window request, its retries told from `schedule` (tests tell them from another). */
export const nextWindowNote = (schedule: RetrySchedule = RETRY_SCHEDULE): string =>
  `the background Next Window request: ${describeRetrySchedule(schedule).backgroundRetried}; then the window plays out and the player pauses (docs/contract/platform.md §7.4)`;

export async function triggerRequest(p: PlayerCore, request: TriggerRequest, actions: TriggerActions): Promise<Sent> {
  // Only a request the player would send now: the precondition table says which it would not, and why.
  checkPreconditions(`trigger:${request}`, preconditionInputs(p.ctx));
  const { ctx } = p;
  switch (request) {
    case 'refresh':
      actions.refresh();
      return {
        sent: 'GET /itemWindow?reason=refresh',
        note: 'as refreshCloudQueue sends it: answered at once, retried in the background (docs/contract/platform.md §7.3, §7.4)',
      };
    case 'nextWindow':
      void backgroundWindow(p, 'refresh', 'refresh');
      return {
        sent: 'GET /itemWindow?reason=refresh',
        note: nextWindowNote(),
      };
    case 'versionPoll':
      void pollVersion(p);
      // The next poll is due a whole interval after this one, as after any poll.
      rescheduleVersionPoll(p);
      return {
        sent: 'GET /version',
        note: 'the Queue Version Poll: retried in the background; a changed version is followed by GET /itemWindow (docs/contract/platform.md §4.3, §7.4)',
      };
    case 'context':
      void refetchContext(p);
      return {
        sent: 'GET /context',
        note: 'as after a changed contextVersion: retried in the background (docs/contract/console.md §5)',
      };
    case 'skipNext':
    case 'skipPrev': {
      const done = actions.act(request);
      // The skip waits for the server: it goes on (and settles) without the caller.
      if (ctx.skipping) {
        done.catch(() => undefined);
        return {
          sent: `GET /itemWindow?reason=${request}`,
          note: 'the user\u2019s skip: the player waits for the answer; a 503 or an incomplete request is retried 3 times, a 403 refuses the skip, a 404 empties the queue (docs/contract/platform.md §7.2, §7.1)',
        };
      }
      // Settled already: refused (thrown to the caller), or done without the server.
      await done;
      return { sent: 'nothing', note: 'the player skipped without asking its server' };
    }
    case 'pause':
    case 'play': {
      await actions.act(request);
      return {
        sent: `GET /itemWindow?reason=${request}`,
        note: `the user\u2019s ${request}: it happens at once; the request tells the server, retried 3 times on a 503 or an incomplete request (docs/contract/platform.md §7.2)`,
      };
    }
  }
}
