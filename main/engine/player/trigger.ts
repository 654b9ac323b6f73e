/**
 * "Trigger now": a fault rule injected into a steadily playing player waited up to ten
 * engine minutes for the request it matches. This sends that request at once, the way the player
 * sends it on its own: the same flow, the same retries, the same meaning of a failure
 * (request-policies.ts), so what the rule does to it is what it would have done later. Only a
 * request the player would send now is sent: one its state or its queue's policies rule out is
 * refused with the reason, and nothing changes.
 */
import type { TriggerRequest, TriggerResult } from '../api/fault-types.js';
import type { PlayerCore } from './core.js';
import { policiesOf } from './context.js';
import { PlaybackError } from './errors.js';
import { backgroundWindow, pollVersion, refetchContext } from './flows.js';
import { rescheduleVersionPoll } from './playback.js';

export interface TriggerActions {
  /** The user's action at the player (`Player.act`). */
  act(action: 'skipNext' | 'skipPrev' | 'pause' | 'play'): Promise<void>;
  /** refreshCloudQueue (`Player.refresh`). */
  refresh(): void;
}

type Sent = Pick<TriggerResult, 'sent' | 'note'>;

const busy = (what: string) =>
  new PlaybackError(
    'ERROR_INVALID_PARAMETER',
    `${what} is in flight or waiting for its next try already: that try is the request to watch`,
  );

export async function triggerRequest(p: PlayerCore, request: TriggerRequest, actions: TriggerActions): Promise<Sent> {
  const { ctx } = p;
  if (!ctx.session)
    throw new PlaybackError('ERROR_SESSION_EVICTED', 'the player has no session: create one and load a queue first');
  if (!ctx.queue || ctx.state === 'IDLE')
    throw new PlaybackError('ERROR_PLAYBACK_NO_CONTENT', 'no cloud queue is loaded: load one first');
  // Only an explicit resume wakes a suspended session (docs/contract/platform.md §3): it sends nothing else.
  if (ctx.state === 'SUSPENDED')
    throw new PlaybackError(
      'ERROR_PLAYBACK_NO_CONTENT',
      'the session is suspended: it sends no request until the user resumes it',
    );
  const policies = policiesOf(ctx);
  switch (request) {
    case 'refresh':
      actions.refresh();
      return {
        sent: 'GET /itemWindow?reason=refresh',
        note: 'as refreshCloudQueue sends it: answered at once, retried in the background (docs/contract/platform.md §7.3, §7.4)',
      };
    case 'nextWindow':
      if (ctx.backgroundWindowRun) throw busy('a background window request');
      void backgroundWindow(p, 'refresh', 'refresh');
      return {
        sent: 'GET /itemWindow?reason=refresh',
        note: 'the background Next Window request: retried 3 times, 10 s apart; then the window plays out and the player pauses (docs/contract/platform.md §7.4)',
      };
    case 'versionPoll':
      if (ctx.asking.versionPoll) throw busy('a version poll');
      void pollVersion(p);
      // The next poll is due a whole interval after this one, as after any poll.
      rescheduleVersionPoll(p);
      return {
        sent: 'GET /version',
        note: 'the Queue Version Poll: retried in the background; a changed version is followed by GET /itemWindow (docs/contract/platform.md §4.3, §7.4)',
      };
    case 'context':
      if (ctx.asking.context) throw busy('a context request');
      void refetchContext(p);
      return {
        sent: 'GET /context',
        note: 'as after a changed contextVersion: retried in the background (docs/contract/console.md §5)',
      };
    case 'skipNext':
    case 'skipPrev': {
      if (!policies.limitedSkips && !policies.notifyUserIntent) {
        throw new PlaybackError(
          'ERROR_DISALLOWED_BY_POLICY',
          `this queue skips without asking its server (limitedSkips and notifyUserIntent are off, docs/contract/platform.md §4.3): a ${request} sends no request`,
        );
      }
      if (ctx.skipping) throw busy('a skip');
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
      if (!policies.notifyUserIntent) {
        throw new PlaybackError(
          'ERROR_DISALLOWED_BY_POLICY',
          `this queue does not ask to hear of the user\u2019s intent (notifyUserIntent is off, docs/contract/platform.md §4.3): a ${request} sends no request`,
        );
      }
      const playing = ctx.state === 'PLAYING' || ctx.state === 'BUFFERING';
      if (request === 'pause' && !playing)
        throw new PlaybackError('ERROR_INVALID_PARAMETER', 'the player is not playing: there is nothing to pause');
      if (request === 'play' && ctx.state !== 'PAUSED')
        throw new PlaybackError(
          'ERROR_INVALID_PARAMETER',
          'the player is not paused: play sends reason=play only after a pause',
        );
      await actions.act(request);
      return {
        sent: `GET /itemWindow?reason=${request}`,
        note: `the user\u2019s ${request}: it happens at once; the request tells the server, retried 3 times on a 503 or an incomplete request (docs/contract/platform.md §7.2)`,
      };
    }
  }
}
