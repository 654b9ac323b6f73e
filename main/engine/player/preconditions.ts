/**
 * Which commands the player refuses, and with what, as one table: state × session × policy →
 * error. The player's commands, its user actions and "Trigger now" check their rows here before
 * anything is dispatched; the admin API hands the same answers to the command bar and the
 * workbench (`refusals` in a player's detail), so a button is off for the reason a press gets.
 */
import type { PlayerCommandName } from '../api/player-types.js';
import { knownItemId, policiesOf, type PlayerContext } from './context.js';
import { PlaybackError, type PlaybackErrorCode } from './errors.js';
import type { MachineState } from './states.js';
import type { PlaybackPolicies } from './wire.js';

/** A command as the table names it: the player's own, or a "Trigger now" of one request. */
export type PlayerCommand = PlayerCommandName;

/** What a precondition looks at: the player as it stands, and the command's own arguments. */
export interface PreconditionInputs {
  state: MachineState;
  /** A playback session exists. */
  session: boolean;
  /** A cloud queue is loaded. */
  queue: boolean;
  /** A track is in place (playing, paused, or waiting for its audio). */
  track: boolean;
  /** The policies in force (the queue's, with the playing item's over them). */
  policies: PlaybackPolicies;
  /** A user's skip waits for the server's answer. */
  skipping: boolean;
  /** Background requests in flight or waiting for their next try. */
  inFlight: { window: boolean; versionPoll: boolean; context: boolean };
  /** The playing item's id, once it has one. */
  playingItemId: string | undefined;
  /** The command's arguments that a row looks at. */
  args?: {
    /** seek: the item it names, if any. */
    itemId?: string;
    /** skipToItem: to the playing item with a position, which is a seek. */
    seeksPlayingItem?: boolean;
  };
}

export interface PreconditionRow {
  id: string;
  commands: readonly PlayerCommand[];
  when(inputs: PreconditionInputs, command: PlayerCommand): boolean;
  errorCode: PlaybackErrorCode;
  reason: string | ((inputs: PreconditionInputs, command: PlayerCommand) => string);
  /** Where the rule comes from, in a line. */
  note: string;
}

/** What a refused command answers: the row that refused it, its code and reason. */
export interface Refusal {
  row: string;
  errorCode: PlaybackErrorCode;
  reason: string;
}

const TRIGGERS = [
  'trigger:refresh',
  'trigger:nextWindow',
  'trigger:versionPoll',
  'trigger:context',
  'trigger:skipNext',
  'trigger:skipPrev',
  'trigger:pause',
  'trigger:play',
] as const satisfies readonly PlayerCommand[];

const ACTIONS = ['skipNext', 'skipPrev', 'pause', 'play', 'resume'] as const satisfies readonly PlayerCommand[];

/** Every command the table covers, in the order the admin API lists their refusals. */
export const PLAYER_COMMANDS: readonly PlayerCommand[] = [
  'skipToItem',
  'seek',
  'refresh',
  'suspend',
  ...ACTIONS,
  ...TRIGGERS,
];

const busy = (what: string) =>
  `${what} is in flight or waiting for its next try already: that try is the request to watch`;

/**
 * The rows, checked in order; a command's first matching row refuses it. The order is the
 * order of the questions: is there a session, a queue, may the user skip (a skip's own policy
 * comes before a suspension: docs/contract/console.md §3), is the session awake, and what the
 * queue's policies allow.
 */
export const PRECONDITIONS: readonly PreconditionRow[] = [
  {
    id: 'no-session',
    commands: ['skipToItem', 'refresh', 'suspend', ...TRIGGERS],
    when: (i) => !i.session,
    errorCode: 'ERROR_SESSION_EVICTED',
    reason: 'the player has no session: create one and load a queue first',
    note: 'docs/contract/console.md §3: a command for a session that is gone',
  },
  {
    id: 'nothing-loaded',
    commands: PLAYER_COMMANDS,
    when: (i, command) => !i.queue || i.state === 'IDLE' || (command === 'seek' && !i.track),
    errorCode: 'ERROR_PLAYBACK_NO_CONTENT',
    reason: 'nothing is loaded: send loadCloudQueue first',
    note: 'docs/contract/console.md §3: playback commands need a loaded cloud queue',
  },
  {
    id: 'can-skip',
    commands: ['skipNext'],
    when: (i) => !i.policies.canSkip,
    errorCode: 'ERROR_DISALLOWED_BY_POLICY',
    reason: 'the canSkip policy forbids this skip',
    note: 'docs/contract/platform.md §4.3 playbackPolicies.canSkip',
  },
  {
    id: 'can-skip-back',
    commands: ['skipPrev'],
    when: (i) => !i.policies.canSkipBack,
    errorCode: 'ERROR_DISALLOWED_BY_POLICY',
    reason: 'the canSkipBack policy forbids this skip',
    note: 'docs/contract/platform.md §4.3 playbackPolicies.canSkipBack',
  },
  {
    id: 'skip-waiting',
    commands: ['skipNext', 'skipPrev'],
    when: (i) => i.skipping,
    errorCode: 'ERROR_INVALID_PARAMETER',
    reason: 'a skip is already waiting for the server',
    note: 'one user skip at a time: the one waiting is answered first',
  },
  {
    id: 'suspended',
    commands: ['skipToItem', 'seek', 'skipNext', 'skipPrev', ...TRIGGERS],
    when: (i) => i.state === 'SUSPENDED',
    errorCode: 'ERROR_PLAYBACK_NO_CONTENT',
    reason: 'the session is suspended: resume it first',
    note: 'docs/contract/platform.md §3: only an explicit resume wakes a suspended session; it sends nothing else',
  },
  {
    id: 'can-skip-to-item',
    commands: ['skipToItem'],
    when: (i) => !i.policies.canSkipToItem,
    errorCode: 'ERROR_DISALLOWED_BY_POLICY',
    reason: 'the canSkipToItem policy forbids skipToItem',
    note: 'docs/contract/platform.md §4.3 playbackPolicies.canSkipToItem',
  },
  {
    id: 'seek-other-item',
    commands: ['seek'],
    when: (i) => i.args?.itemId !== undefined && i.args.itemId !== i.playingItemId,
    errorCode: 'ERROR_INVALID_PARAMETER',
    reason: (i) => `itemId ${i.args?.itemId} is not the playing item (${i.playingItemId ?? 'none named yet'})`,
    note: 'docs/contract/console.md §3 seek: the itemId, when given, is the playing item',
  },
  {
    id: 'can-seek',
    commands: ['seek', 'skipToItem'],
    when: (i, command) => !i.policies.canSeek && (command === 'seek' || i.args?.seeksPlayingItem === true),
    errorCode: 'ERROR_DISALLOWED_BY_POLICY',
    reason: 'the canSeek policy forbids moving the playhead of the playing item',
    note: 'docs/contract/platform.md §4.3 playbackPolicies.canSeek; skipToItem to the playing item with a position is a seek',
  },
  {
    id: 'trigger-window-busy',
    // A refresh too: sent now, it would wait for the one in flight and its retries, and go out
    // half a minute after the "sent" it was answered (audit X20).
    commands: ['trigger:nextWindow', 'trigger:refresh'],
    when: (i) => i.inFlight.window,
    errorCode: 'ERROR_INVALID_PARAMETER',
    reason: busy('a background window request'),
    note: 'docs/contract/platform.md §7.4: one background window request at a time',
  },
  {
    id: 'trigger-poll-busy',
    commands: ['trigger:versionPoll'],
    when: (i) => i.inFlight.versionPoll,
    errorCode: 'ERROR_INVALID_PARAMETER',
    reason: busy('a version poll'),
    note: 'one version poll at a time',
  },
  {
    id: 'trigger-context-busy',
    commands: ['trigger:context'],
    when: (i) => i.inFlight.context,
    errorCode: 'ERROR_INVALID_PARAMETER',
    reason: busy('a context request'),
    note: 'one context request at a time',
  },
  {
    id: 'trigger-skip-asks-nothing',
    commands: ['trigger:skipNext', 'trigger:skipPrev'],
    when: (i) => !i.policies.limitedSkips && !i.policies.notifyUserIntent,
    errorCode: 'ERROR_DISALLOWED_BY_POLICY',
    reason: (_, command) =>
      `this queue skips without asking its server (limitedSkips and notifyUserIntent are off, docs/contract/platform.md §4.3): a ${command.slice('trigger:'.length)} sends no request`,
    note: 'docs/contract/platform.md §4.3: a skip asks the server only under limitedSkips or notifyUserIntent',
  },
  {
    id: 'trigger-skip-busy',
    commands: ['trigger:skipNext', 'trigger:skipPrev'],
    when: (i) => i.skipping,
    errorCode: 'ERROR_INVALID_PARAMETER',
    reason: busy('a skip'),
    note: 'one user skip at a time: its try is the request to watch',
  },
  {
    id: 'trigger-intent-off',
    commands: ['trigger:pause', 'trigger:play'],
    when: (i) => !i.policies.notifyUserIntent,
    errorCode: 'ERROR_DISALLOWED_BY_POLICY',
    reason: (_, command) =>
      `this queue does not ask to hear of the user\u2019s intent (notifyUserIntent is off, docs/contract/platform.md §4.3): a ${command.slice('trigger:'.length)} sends no request`,
    note: 'docs/contract/platform.md §4.3: pause and play are told the server only under notifyUserIntent',
  },
  {
    id: 'trigger-pause-not-playing',
    commands: ['trigger:pause'],
    when: (i) => i.state !== 'PLAYING' && i.state !== 'BUFFERING',
    errorCode: 'ERROR_INVALID_PARAMETER',
    reason: 'the player is not playing: there is nothing to pause',
    note: 'a pause is sent only by a playing player',
  },
  {
    id: 'trigger-play-not-paused',
    commands: ['trigger:play'],
    when: (i) => i.state !== 'PAUSED',
    errorCode: 'ERROR_INVALID_PARAMETER',
    reason: 'the player is not paused: play sends reason=play only after a pause',
    note: 'reason=play is sent only after a pause',
  },
];

/** The row that refuses `command` now, or null when it may go. */
export function refusalOf(command: PlayerCommand, inputs: PreconditionInputs): Refusal | null {
  for (const row of PRECONDITIONS) {
    if (!row.commands.includes(command) || !row.when(inputs, command)) continue;
    const reason = typeof row.reason === 'string' ? row.reason : row.reason(inputs, command);
    return { row: row.id, errorCode: row.errorCode, reason };
  }
  return null;
}

/** Throws what the table refuses `command` with, if anything. */
export function checkPreconditions(command: PlayerCommand, inputs: PreconditionInputs): void {
  const refusal = refusalOf(command, inputs);
  if (refusal) throw new PlaybackError(refusal.errorCode, refusal.reason);
}

/** Every command's refusal now, argument-free (the admin API's `refusals`); an allowed command is absent. */
export function refusalsOf(inputs: PreconditionInputs): Partial<Record<PlayerCommand, Refusal>> {
  const refusals: Partial<Record<PlayerCommand, Refusal>> = {};
  for (const command of PLAYER_COMMANDS) {
    const refusal = refusalOf(command, inputs);
    if (refusal) refusals[command] = refusal;
  }
  return refusals;
}

/** The inputs as the player's state record gives them. */
export function preconditionInputs(ctx: PlayerContext, args?: PreconditionInputs['args']): PreconditionInputs {
  return {
    state: ctx.state,
    session: ctx.session !== null,
    queue: ctx.queue !== null,
    track: ctx.track !== null,
    policies: policiesOf(ctx),
    skipping: ctx.skipping !== null,
    inFlight: {
      window: ctx.backgroundWindowRun !== null,
      versionPoll: ctx.asking.versionPoll === true,
      context: ctx.asking.context === true,
    },
    playingItemId: knownItemId(ctx),
    args,
  };
}
