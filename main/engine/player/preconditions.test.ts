/**
 * The precondition table, one test per row: the row refuses its command with its code, and a
 * player that meets the row refuses the command the same way, with its `refusals` (what the
 * command bar and the workbench show) saying so beforehand.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { playingHarness, type PlayerHarness } from '../testing/player-harness.js';
import { tracks } from '../testing/stub-cloud-queue.js';
import {
  PLAYER_COMMANDS,
  PRECONDITIONS,
  refusalOf,
  refusalsOf,
  type PlayerCommand,
  type PreconditionInputs,
} from './preconditions.js';
import { DEFAULT_POLICIES } from './wire.js';

/** A loaded, playing player that every command may reach: no row matches it. */
const READY: PreconditionInputs = {
  state: 'PLAYING',
  session: true,
  queue: true,
  track: true,
  policies: { ...DEFAULT_POLICIES, notifyUserIntent: true, limitedSkips: true },
  skipping: false,
  inFlight: { window: false, versionPoll: false, context: false },
  playingItemId: 'item-1',
};

/** The same, paused: what reason=play needs. */
const PAUSED: PreconditionInputs = { ...READY, state: 'PAUSED' };

const ROW_CASES: Record<
  string,
  { command: PlayerCommand; change: Partial<PreconditionInputs>; code: string; base?: PreconditionInputs }
> = {
  'no-session': { command: 'refresh', change: { session: false }, code: 'ERROR_SESSION_EVICTED' },
  'nothing-loaded': { command: 'play', change: { state: 'IDLE', queue: false }, code: 'ERROR_PLAYBACK_NO_CONTENT' },
  'can-skip': {
    command: 'skipNext',
    change: { policies: { ...READY.policies, canSkip: false } },
    code: 'ERROR_DISALLOWED_BY_POLICY',
  },
  'can-skip-back': {
    command: 'skipPrev',
    change: { policies: { ...READY.policies, canSkipBack: false } },
    code: 'ERROR_DISALLOWED_BY_POLICY',
  },
  'skip-waiting': { command: 'skipNext', change: { skipping: true }, code: 'ERROR_INVALID_PARAMETER' },
  suspended: { command: 'seek', change: { state: 'SUSPENDED' }, code: 'ERROR_PLAYBACK_NO_CONTENT' },
  'can-skip-to-item': {
    command: 'skipToItem',
    change: { policies: { ...READY.policies, canSkipToItem: false } },
    code: 'ERROR_DISALLOWED_BY_POLICY',
  },
  'seek-other-item': { command: 'seek', change: { args: { itemId: 'item-9' } }, code: 'ERROR_INVALID_PARAMETER' },
  'can-seek': {
    command: 'skipToItem',
    change: { policies: { ...READY.policies, canSeek: false }, args: { seeksPlayingItem: true } },
    code: 'ERROR_DISALLOWED_BY_POLICY',
  },
  'trigger-window-busy': {
    command: 'trigger:nextWindow',
    change: { inFlight: { window: true, versionPoll: false, context: false } },
    code: 'ERROR_INVALID_PARAMETER',
  },
  'trigger-poll-busy': {
    command: 'trigger:versionPoll',
    change: { inFlight: { window: false, versionPoll: true, context: false } },
    code: 'ERROR_INVALID_PARAMETER',
  },
  'trigger-context-busy': {
    command: 'trigger:context',
    change: { inFlight: { window: false, versionPoll: false, context: true } },
    code: 'ERROR_INVALID_PARAMETER',
  },
  'trigger-skip-asks-nothing': {
    command: 'trigger:skipPrev',
    change: { policies: { ...READY.policies, limitedSkips: false, notifyUserIntent: false } },
    code: 'ERROR_DISALLOWED_BY_POLICY',
  },
  'trigger-skip-busy': { command: 'trigger:skipNext', change: { skipping: true }, code: 'ERROR_INVALID_PARAMETER' },
  'trigger-intent-off': {
    base: PAUSED,
    command: 'trigger:play',
    change: { policies: { ...READY.policies, notifyUserIntent: false } },
    code: 'ERROR_DISALLOWED_BY_POLICY',
  },
  'trigger-pause-not-playing': {
    command: 'trigger:pause',
    change: { state: 'PAUSED' },
    code: 'ERROR_INVALID_PARAMETER',
  },
  'trigger-play-not-paused': {
    base: PAUSED,
    command: 'trigger:play',
    change: { state: 'BUFFERING' },
    code: 'ERROR_INVALID_PARAMETER',
  },
};

describe('the precondition table', () => {
  it('lets every command through a ready player (reason=play, through a paused one)', () => {
    expect(refusalsOf(READY)).toEqual({ 'trigger:play': expect.objectContaining({ row: 'trigger-play-not-paused' }) });
    expect(refusalsOf(PAUSED)).toEqual({
      'trigger:pause': expect.objectContaining({ row: 'trigger-pause-not-playing' }),
    });
  });

  it('has a case below for every row, and every row names commands the table lists', () => {
    expect(Object.keys(ROW_CASES).sort()).toEqual(PRECONDITIONS.map((row) => row.id).sort());
    for (const row of PRECONDITIONS) for (const command of row.commands) expect(PLAYER_COMMANDS).toContain(command);
  });

  for (const row of PRECONDITIONS) {
    it(`row ${row.id}: refuses ${ROW_CASES[row.id]?.command} with ${ROW_CASES[row.id]?.code}`, () => {
      const { command, change, code, base = READY } = ROW_CASES[row.id]!;
      expect(row.commands).toContain(command);
      expect(refusalOf(command, { ...base, ...change })).toMatchObject({ row: row.id, errorCode: code });
      // …and only because of what the case changed.
      expect(refusalOf(command, base)).toBeNull();
    });
  }

  it('asks a user skip its policy before whether the session is suspended (docs/contract/console.md §3)', () => {
    const suspended = { ...READY, state: 'SUSPENDED' as const };
    const noSkip = { ...suspended, policies: { ...READY.policies, canSkip: false } };
    expect(refusalOf('skipNext', noSkip)?.row).toBe('can-skip');
    expect(refusalOf('skipToItem', { ...suspended, policies: { ...READY.policies, canSkipToItem: false } })?.row).toBe(
      'suspended',
    );
  });
});

describe('a player reads its commands\u2019 refusals from the table', () => {
  let h: PlayerHarness;
  afterEach(() => h?.close());

  it('refuses what its refusals say, with the same code and reason, and nothing else', async () => {
    h = await playingHarness({ items: tracks(5, 60_000), policies: { canSeek: false, pauseTtlSec: 1 } });
    expect(h.player.refusals().seek).toMatchObject({ row: 'can-seek' });
    expect(() => h.player.seek({ positionMillis: 1_000 })).toThrow(
      expect.objectContaining({ errorCode: 'ERROR_DISALLOWED_BY_POLICY', reason: h.player.refusals().seek!.reason }),
    );
    await h.player.act('pause', 'user');
    await h.advance(1_000);
    expect(h.player.machineState).toBe('SUSPENDED');
    const refusals = h.player.refusals();
    expect(refusals.seek?.row).toBe('suspended');
    expect(refusals.skipToItem?.row).toBe('suspended');
    expect(refusals['trigger:refresh']?.row).toBe('suspended');
    // A suspended session is woken by resume, and refresh and suspend still go.
    expect(refusals.resume).toBeUndefined();
    expect(refusals.refresh).toBeUndefined();
    await expect(h.player.trigger('refresh')).rejects.toMatchObject({ reason: refusals['trigger:refresh']!.reason });
  });
});
