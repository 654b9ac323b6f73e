import { describe, expect, it } from 'vitest';
import {
  firstWindowReason,
  notifiesUserIntent,
  skipToItemAsksServer,
  startsAtOnce,
  userSkipAsksServer,
} from './reasons.js';
import { DEFAULT_POLICIES } from './wire.js';

const plain = DEFAULT_POLICIES;
const limited = { ...DEFAULT_POLICIES, limitedSkips: true };
const notify = { ...DEFAULT_POLICIES, notifyUserIntent: true };

describe('reason rules (docs/contract/platform.md §4.3)', () => {
  it('load: without metadata, or with limitedSkips; refresh with metadata otherwise', () => {
    expect(firstWindowReason(plain, false, false, 3)).toBe('load');
    expect(firstWindowReason(limited, true, false, 3)).toBe('load');
    expect(firstWindowReason(plain, true, false, 3)).toBe('refresh');
    expect(startsAtOnce(plain, true)).toBe(true);
    expect(startsAtOnce(limited, true)).toBe(false);
    expect(startsAtOnce(plain, false)).toBe(false);
  });

  it('load+queueCompleted when all audio was downloaded before the first window request, from v2.2', () => {
    expect(firstWindowReason(limited, true, true, 2)).toBe('load+queueCompleted');
    expect(firstWindowReason(limited, true, true, 3)).toBe('load+queueCompleted');
    expect(firstWindowReason(plain, true, true, 3)).toBe('refresh');
    // Joined reasons are v2.2's (§9.3): a v2.0 server never hears one (audit).
    expect(firstWindowReason(limited, true, true, 0)).toBe('load');
  });

  it('skipToItem asks the server with limitedSkips or without metadata', () => {
    expect(skipToItemAsksServer(plain, false)).toBe(true);
    expect(skipToItemAsksServer(limited, true)).toBe(true);
    expect(skipToItemAsksServer(plain, true)).toBe(false);
  });

  it('skipNext/skipPrev ask (and wait for) the server with limitedSkips or notifyUserIntent', () => {
    expect(userSkipAsksServer(plain)).toBe(false);
    expect(userSkipAsksServer(limited)).toBe(true);
    expect(userSkipAsksServer(notify)).toBe(true);
  });

  it('pause/play are sent only with notifyUserIntent', () => {
    expect(notifiesUserIntent(plain)).toBe(false);
    expect(notifiesUserIntent(limited)).toBe(false);
    expect(notifiesUserIntent(notify)).toBe(true);
  });
});
